import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { MfaKeys } from '../../src/auth/mfa/mfa-keys';
import { UserTotp } from '../../src/auth/mfa/user-totp.entity';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { codeAt, enrolTotp } from '../helpers/totp';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';
import { verified, WebhookReceiver } from '../webhooks/receiver';

const ROOT = join(__dirname, '..', '..');
const OPERATORS = readFileSync(join(ROOT, 'docs', 'operators', 'secrets-and-keys.md'), 'utf8');
/** Every setting the procedures touch: unset unless the env file sets it. */
const ROTATED = [
  'JWT_SECRET',
  'JWT_PREVIOUS_SECRETS',
  'MFA_ENCRYPTION_KEY',
  'MFA_ENCRYPTION_PREVIOUS_KEYS',
  'WEBHOOK_SECRETS_KEY',
  'WEBHOOK_SECRETS_PREVIOUS_KEYS',
];

/** The ```bash rotation=<id> block of docs/operators/secrets-and-keys.md "Rotating secrets", as pasted. */
function block(id: string): string {
  const match = new RegExp('^```bash rotation=' + id + '\\n([\\s\\S]*?)^```$', 'm').exec(OPERATORS);
  if (!match)
    throw new Error(`docs/operators/secrets-and-keys.md has no \`\`\`bash rotation=${id} block`);
  return match[1];
}

/**
 * docs/operators/secrets-and-keys.md "Rotating secrets", run as an operator would: each block on a real env file,
 * then the service started on that file (a restart), with one user enrolled in TOTP and one
 * webhook throughout, from the release that derived every key from JWT_SECRET onwards.
 */
describe('docs/operators/secrets-and-keys.md "Rotating secrets"', () => {
  let dir: string;
  let db: TestDatabase;
  let receiver: WebhookReceiver;
  let t: TestApp | undefined;
  let account: TestAccount;
  let totpSecret: string;
  let recoveryCodes: string[];
  let webhook: { id: string; secret: string };
  let firstToken: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cgk-rotation-docs-'));
    symlinkSync(join(ROOT, 'scripts'), join(dir, 'scripts'));
    writeFileSync(
      join(dir, '.env.production'),
      `# what an earlier release needed\nJWT_SECRET=${'legacy-jwt-secret-'.padEnd(48, 'j')}\n`,
      { mode: 0o600 },
    );
    db = await createTestDatabase();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  function envFile(): Record<string, string> {
    const lines = readFileSync(join(dir, '.env.production'), 'utf8').split('\n');
    return Object.fromEntries(
      lines.flatMap((line) => {
        const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
        return m ? [[m[1], m[2]]] : [];
      }),
    );
  }

  /** Runs the block in bash, asynchronously: its curls are answered by this process's app. */
  async function run(id: string, env: Record<string, string> = {}): Promise<string> {
    const child = spawn('bash', ['-c', `set -euo pipefail\n${block(id)}`], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`block rotation=${id} failed (${code}): ${stderr}`);
    return stdout;
  }

  /** A restart on the env file as it now is. */
  async function restart(): Promise<TestApp> {
    await t?.close();
    const unset = Object.fromEntries(ROTATED.map((name) => [name, undefined]));
    t = await createTestApp({
      db,
      listen: true,
      env: { ...unset, WEBHOOK_POLL_INTERVAL_MS: '100', ...envFile() },
    });
    return t;
  }

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const loginWith = (otp?: string) =>
    request(t!.server)
      .post('/auth/login')
      .send({ email: account.email, password: account.password, ...(otp ? { otp } : {}) });
  async function webhookSigns() {
    const token = (await loginWith(recoveryCodes.pop()).expect(200)).body.accessToken;
    const test = await request(t!.server)
      .post(`/api/v1/webhooks/${webhook.id}/test`)
      .set(bearer(token))
      .expect(202);
    const [hook] = await receiver.waitFor((h) => h.headers['webhook-id'] === test.body.eventId);
    expect(verified(webhook.secret, hook).type).toBe('webhook.test');
  }
  /** The stored TOTP secret opens with the current MFA key itself (not an older one). */
  async function totpUnderCurrentKey() {
    const row = await t!.app
      .get(DataSource)
      .getRepository(UserTotp)
      .findOneByOrFail({ userId: account.userId });
    expect(t!.app.get(MfaKeys).open(row.secretEncrypted)).toEqual({
      plaintext: totpSecret,
      stale: false,
    });
  }

  it('upgrade: the new keys are set, and what the earlier release wrote still works', async () => {
    await restart();
    account = await t!.createAccount();
    firstToken = (await loginWith().expect(200)).body.accessToken;
    ({ secret: totpSecret, recoveryCodes } = await enrolTotp(t!, firstToken));
    const created = await request(t!.server)
      .post('/api/v1/webhooks')
      .set(bearer(firstToken))
      .send({ url: receiver.url, events: ['session.revoked'] })
      .expect(201);
    webhook = { id: created.body.id, secret: created.body.secret };

    await run('upgrade');
    expect(Object.keys(envFile())).toEqual([
      'JWT_SECRET',
      'MFA_ENCRYPTION_KEY',
      'MFA_ENCRYPTION_PREVIOUS_KEYS',
      'WEBHOOK_SECRETS_KEY',
    ]);
    await restart();
    await totpUnderCurrentKey();
    await loginWith(await codeAt(totpSecret, 1)).expect(200);
    await webhookSigns();
  });

  it('JWT_SECRET: nobody is logged out within the overlap; after it, old tokens end', async () => {
    expect(await run('jwt')).toMatch(/JWT_SECRET rotated .* JWT_PREVIOUS_SECRETS lists 1 earlier/);
    await restart();
    await request(t!.server).get('/api/v1/auth/mfa').set(bearer(firstToken)).expect(200);
    await webhookSigns();

    await run('jwt-end');
    expect(envFile()).not.toHaveProperty('JWT_PREVIOUS_SECRETS');
    await restart();
    const ended = await request(t!.server).get('/api/v1/auth/mfa').set(bearer(firstToken));
    expect(ended.body.code).toBe('JWT_INVALID');
    await totpUnderCurrentKey();
    await webhookSigns(); // a recovery code from before the upgrade signs in, too
  });

  it('MFA_ENCRYPTION_KEY: the start re-encrypts TOTP secrets; earlier recovery codes still work', async () => {
    const before = envFile().MFA_ENCRYPTION_KEY;
    await run('mfa');
    expect(envFile().MFA_ENCRYPTION_PREVIOUS_KEYS.split(',')[0]).toBe(before);
    await restart();
    await totpUnderCurrentKey();
    await webhookSigns();
  });

  it('WEBHOOK_SECRETS_KEY: the start re-encrypts signing secrets; the old key can then go', async () => {
    await run('webhook');
    await restart();
    await webhookSigns();
    await run('webhook-end');
    expect(envFile()).not.toHaveProperty('WEBHOOK_SECRETS_PREVIOUS_KEYS');
    await restart();
    await webhookSigns();
  });

  it('API keys: the successor has the same scopes, the old one is refused', async () => {
    const token = (await loginWith(recoveryCodes.pop()).expect(200)).body.accessToken;
    const old = await request(t!.server)
      .post('/api/v1/api-keys')
      .set(bearer(token))
      .send({ name: 'backend', scopes: ['usage:read', 'defi:preflight'] })
      .expect(201);
    const base = `http://127.0.0.1:${(t!.server.address() as AddressInfo).port}`;
    const out = (await run('api-key', { BASE: base, TOKEN: token, OLD: old.body.id }))
      .trim()
      .split('\n');
    expect(JSON.parse(out[1])).toEqual({ id: old.body.id, active: false });
    const stats = (key: string) =>
      request(t!.server).get('/api/v1/usage/stats').set('X-API-Key', key);
    await stats(out[0]).expect(200);
    expect((await stats(old.body.key)).body.code).toBe('API_KEY_INACTIVE');
    const keys = await request(t!.server).get('/api/v1/api-keys').set(bearer(token)).expect(200);
    const successor = keys.body.items.find((k: { name: string }) => k.name === 'rotated');
    expect(successor.scopes.sort()).toEqual(['defi:preflight', 'usage:read']);
  });
});
