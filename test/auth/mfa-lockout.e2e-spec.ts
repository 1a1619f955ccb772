import { generate } from '@otplib/totp';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { MfaFailure } from '../../src/auth/mfa/mfa-failure.entity';
import { base32, nodeCrypto } from '../../src/auth/mfa/otp-plugins';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';

const codeAt = (secret: string, stepsAhead = 0) =>
  generate({
    secret,
    crypto: nodeCrypto,
    base32,
    epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead,
  });

/**
 * Security review: a known password must not let anyone brute-force the 6-digit code from many
 * addresses. TRUST_PROXY=true, so every attempt below comes from another client IP (an IPv6 /64
 * worth of them): only the per-user count in the database can stop them.
 */
describe('MfaLockout: wrong one-time codes per user, from any address', () => {
  let t: TestApp;
  let ip = 0;
  const nextIp = () => `2001:db8::${(++ip).toString(16)}`;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true', MFA_MAX_FAILURES: '5' } });
  });
  afterAll(() => t.close());

  const loginWith = (account: TestAccount, otp: string) =>
    request(t.server)
      .post('/auth/login')
      .set('X-Forwarded-For', nextIp())
      .send({ email: account.email, password: account.password, otp });
  const post = (token: string, path: string, body: object) =>
    request(t.server)
      .post(path)
      .set('X-Forwarded-For', nextIp())
      .set('Authorization', `Bearer ${token}`)
      .send(body);
  /** Moves the user's lockout window into the past, as if its 15 minutes had gone by. */
  const windowPasses = (userId: string) =>
    t.app
      .get(DataSource)
      .getRepository(MfaFailure)
      .update({ userId }, { windowStartedAt: new Date(Date.now() - 16 * 60_000) });

  function expectLocked(res: request.Response) {
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', phase: 'auth' });
    expect(res.body.hint).toMatch(/authenticator app/);
    const { retryAfter } = res.body;
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(res.headers['retry-after']).toBe(String(retryAfter));
  }

  it('locks login and disable after 5 wrong codes, the right one included, until the window passes', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const setup = await post(token, '/api/v1/auth/mfa/totp/setup', {}).expect(200);
    const secret = setup.body.secret as string;
    const enabled = await post(token, '/api/v1/auth/mfa/totp/enable', {
      code: await codeAt(secret),
    }).expect(200);
    const recoveryCodes = enabled.body.recoveryCodes as string[];

    for (let i = 0; i < 3; i++)
      expect((await loginWith(account, '000000').expect(401)).body.code).toBe('MFA_INVALID');
    for (let i = 0; i < 2; i++) {
      const wrong = await post(token, '/api/v1/auth/mfa/totp/disable', { code: '000000' });
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe('MFA_INVALID');
    }

    const right = await codeAt(secret, 1);
    expectLocked(await loginWith(account, right));
    expectLocked(await loginWith(account, recoveryCodes[0]));
    expectLocked(await post(token, '/api/v1/auth/mfa/totp/disable', { code: recoveryCodes[0] }));

    await windowPasses(account.userId);
    // The refused attempts spent nothing: the same code and recovery code still work.
    await loginWith(account, right).expect(200);
    // The success cleared the count: four more wrong codes leave a fifth attempt.
    for (let i = 0; i < 4; i++) await loginWith(account, '111111').expect(401);
    await loginWith(account, recoveryCodes[0]).expect(200);
    await post(token, '/api/v1/auth/mfa/totp/disable', { code: recoveryCodes[1] }).expect(204);
  });

  it('locks enabling after 5 wrong codes', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const setup = await post(token, '/api/v1/auth/mfa/totp/setup', {}).expect(200);
    for (let i = 0; i < 5; i++) {
      const wrong = await post(token, '/api/v1/auth/mfa/totp/enable', { code: '000000' });
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe('MFA_INVALID');
    }
    const right = await codeAt(setup.body.secret);
    expectLocked(await post(token, '/api/v1/auth/mfa/totp/enable', { code: right }));
    await windowPasses(account.userId);
    const ok = await post(token, '/api/v1/auth/mfa/totp/enable', { code: right }).expect(200);
    expect(ok.body.recoveryCodes).toHaveLength(10);
  });

  it('counts parallel guesses exactly: no more than 5 are checked', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const setup = await post(token, '/api/v1/auth/mfa/totp/setup', {}).expect(200);
    await post(token, '/api/v1/auth/mfa/totp/enable', {
      code: await codeAt(setup.body.secret),
    }).expect(200);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => loginWith(account, '222222')),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });
});
