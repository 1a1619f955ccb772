import request from 'supertest';
import { DataSource } from 'typeorm';
import { MfaKeys } from '../../src/auth/mfa/mfa-keys';
import { UserTotp } from '../../src/auth/mfa/user-totp.entity';
import { jwtKeyId } from '../../src/auth/tokens/jwt-secret';
import { runCommand } from '../../src/cli/cli-commands';
import { OPERATOR_ACTOR } from '../../src/events/activity-event';
import { SecretBox } from '../../src/webhooks/secret-box';
import { WebhookEndpoint } from '../../src/webhooks/webhook-endpoint.entity';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { codeAt, enrolTotp } from '../helpers/totp';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';
import { verified, WebhookReceiver } from '../webhooks/receiver';

/** The `kid` in a JWT's header. */
const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { kid?: string })
    .kid;

const [S1, S2, S3] = ['one', 'two', 'three'].map((n) => `jwt-secret-${n}-`.padEnd(48, 'x'));
const MFA_KEY = 'mfa-encryption-key-'.padEnd(48, 'm');
const WEBHOOK_KEY = 'webhook-secrets-key-'.padEnd(48, 'w');
/** What the release before kept: no separate keys, everything derived from JWT_SECRET. */
const LEGACY = { MFA_ENCRYPTION_KEY: undefined, WEBHOOK_SECRETS_KEY: undefined };

/**
 * The operator trial of issue 43, repeated: an owner with TOTP and a webhook, written by a release
 * that derived both keys from JWT_SECRET; then JWT_SECRET rotated. Before: the authenticator code
 * got a 500, a recovery code 401 MFA_INVALID, every webhook "internal error: not sent".
 */
describe('Secret rotation (JWT key ids, MFA and webhook keys)', () => {
  let db: TestDatabase;
  let receiver: WebhookReceiver;
  let t: TestApp | undefined;
  let account: TestAccount;
  let totpSecret: string;
  let recoveryCodes: string[];
  let webhook: { id: string; secret: string };
  let tokens: { accessToken: string; refreshToken: string };

  beforeAll(async () => {
    db = await createTestDatabase();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await db?.drop();
  });

  async function boot(env: Record<string, string | undefined>): Promise<TestApp> {
    await t?.close();
    t = await createTestApp({ db, env: { WEBHOOK_POLL_INTERVAL_MS: '100', ...env } });
    return t;
  }
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const loginWith = (app: TestApp, otp?: string) =>
    request(app.server)
      .post('/auth/login')
      .send({ email: account.email, password: account.password, ...(otp ? { otp } : {}) });
  async function sendsSignedTest(app: TestApp, token: string, secrets: string[]) {
    const test = await request(app.server)
      .post(`/api/v1/webhooks/${webhook.id}/test`)
      .set(bearer(token))
      .expect(202);
    const [hook] = await receiver.waitFor((h) => h.headers['webhook-id'] === test.body.eventId);
    for (const secret of secrets) expect(verified(secret, hook).type).toBe('webhook.test');
    return hook;
  }

  it('before: a release with keys derived from JWT_SECRET enrols TOTP and a webhook', async () => {
    const app = await boot({ JWT_SECRET: S1, ...LEGACY });
    account = await app.createAccount();
    const first = await loginWith(app).expect(200);
    const auth = bearer(first.body.accessToken);
    ({ secret: totpSecret, recoveryCodes } = await enrolTotp(app, first.body.accessToken));
    const created = await request(app.server)
      .post('/api/v1/webhooks')
      .set(auth)
      .send({ url: receiver.url, events: ['session.revoked'] })
      .expect(201);
    webhook = { id: created.body.id, secret: created.body.secret };
    tokens = (await loginWith(app, recoveryCodes[0]).expect(200)).body;
    expect(kidOf(tokens.accessToken)).toBe(jwtKeyId(S1));
  });

  it('a JWT rotation within the overlap logs nobody out; TOTP, recovery codes and webhooks still work', async () => {
    const app = await boot({
      JWT_SECRET: S2,
      JWT_PREVIOUS_SECRETS: S1,
      MFA_ENCRYPTION_KEY: MFA_KEY,
      WEBHOOK_SECRETS_KEY: WEBHOOK_KEY,
    });
    // The token signed with the previous secret still works, and so does its refresh.
    await request(app.server).get('/api/v1/auth/mfa').set(bearer(tokens.accessToken)).expect(200);
    const refreshed = await request(app.server)
      .post('/auth/refresh')
      .send({ refreshToken: tokens.refreshToken })
      .expect(200);
    expect(kidOf(refreshed.body.accessToken)).toBe(jwtKeyId(S2));
    // The authenticator's next code signs in (it was a 500), and so does a recovery code (401).
    const withTotp = await loginWith(app, await codeAt(totpSecret, 1)).expect(200);
    await loginWith(app, recoveryCodes[1]).expect(200);
    // Webhooks sign with the secret the receiver has (they were "internal error: not sent").
    await sendsSignedTest(app, withTotp.body.accessToken, [webhook.secret]);
  });

  it('after the overlap: old tokens end, TOTP and webhooks no longer depend on any JWT secret', async () => {
    const app = await boot({
      JWT_SECRET: S3,
      MFA_ENCRYPTION_KEY: MFA_KEY,
      WEBHOOK_SECRETS_KEY: WEBHOOK_KEY,
      // Recovery codes issued before MFA_ENCRYPTION_KEY stay valid while their key is listed.
      MFA_ENCRYPTION_PREVIOUS_KEYS: S1,
    });
    const stale = await request(app.server).get('/api/v1/auth/mfa').set(bearer(tokens.accessToken));
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('JWT_INVALID');
    // The previous start re-encrypted the TOTP secret under MFA_ENCRYPTION_KEY: the current key
    // opens it (not stale), with no JWT secret involved.
    const row = await app.app
      .get(DataSource)
      .getRepository(UserTotp)
      .findOneByOrFail({ userId: account.userId });
    expect(app.app.get(MfaKeys).open(row.secretEncrypted)).toEqual({
      plaintext: totpSecret,
      stale: false,
    });
    await loginWith(app, recoveryCodes[2]).expect(200);
    const token = (await loginWith(app, recoveryCodes[3]).expect(200)).body.accessToken;
    await sendsSignedTest(app, token, [webhook.secret]);
  });

  it('rotate-secret drops a previous secret no key can read, and the new one signs alone', async () => {
    const app = t!;
    const token = (await loginWith(app, recoveryCodes[4]).expect(200)).body.accessToken;
    // A secret sealed under a key this deployment does not have (a lost WEBHOOK_SECRETS_KEY).
    await app.app
      .get(DataSource)
      .getRepository(WebhookEndpoint)
      .update(
        { id: webhook.id },
        { secretSealed: new SecretBox('a-lost-key-'.padEnd(48, 'l')).seal('whsec_lost') },
      );
    const rotated = await request(app.server)
      .post(`/api/v1/webhooks/${webhook.id}/rotate-secret`)
      .set(bearer(token))
      .expect(200);
    expect(rotated.body.previousSecretExpiresAt).toBeNull();
    const hook = await sendsSignedTest(app, token, [rotated.body.secret]);
    expect(String(hook.headers['webhook-signature']).split(' ')).toHaveLength(1);
    webhook.secret = rotated.body.secret;
  });

  it('refuses to start when a key cannot decrypt the newest stored secret, naming the variable', async () => {
    await t?.close();
    t = undefined;
    const wrong = 'a-wrong-key-'.padEnd(48, 'q');
    await expect(
      boot({ JWT_SECRET: S3, MFA_ENCRYPTION_KEY: wrong, WEBHOOK_SECRETS_KEY: WEBHOOK_KEY }),
    ).rejects.toThrow(/^MFA_ENCRYPTION_KEY does not decrypt the newest stored TOTP secret/);
    await expect(
      boot({ JWT_SECRET: S3, MFA_ENCRYPTION_KEY: MFA_KEY, WEBHOOK_SECRETS_KEY: wrong }),
    ).rejects.toThrow(
      /^WEBHOOK_SECRETS_KEY does not decrypt the newest stored webhook signing secret/,
    );
  });

  it('users reset-mfa recovers a lost device: the password alone signs in, audited', async () => {
    const app = await boot({
      JWT_SECRET: S3,
      MFA_ENCRYPTION_KEY: MFA_KEY,
      WEBHOOK_SECRETS_KEY: WEBHOOK_KEY,
    });
    expect((await loginWith(app).expect(401)).body.code).toBe('MFA_REQUIRED');
    const result = await runCommand(app.app, 'users reset-mfa', { email: account.email });
    expect(result).toMatchObject({
      userId: account.userId,
      removedAuthenticator: true,
      removedRecoveryCodes: 10,
    });
    const token = (await loginWith(app).expect(200)).body.accessToken;
    const audit = await request(app.server)
      .get('/api/v1/audit-events?type=mfa.reset')
      .set(bearer(token))
      .expect(200);
    expect(audit.body.items[0]).toMatchObject({
      type: 'mfa.reset',
      // The operator: OPERATOR_ID, else the OS user running the CLI (issue 58).
      actor: OPERATOR_ACTOR,
      target: { type: 'user', id: account.userId },
      data: { removedAuthenticator: true },
    });
    await expect(
      runCommand(app.app, 'users reset-mfa', { email: 'nobody@example.com' }),
    ).rejects.toThrow(/No user with email nobody@example.com/);
  });
});
