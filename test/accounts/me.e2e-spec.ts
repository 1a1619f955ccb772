import { generate } from '@otplib/totp';
import request from 'supertest';
import { AccountsService } from '../../src/accounts/accounts.service';
import { base32, nodeCrypto } from '../../src/auth/mfa/otp-plugins';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';

/** GET /api/v1/auth/me (issue 33 item 1): the signed-in user and their account's limits. */
describe('MeController GET /api/v1/auth/me', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const me = (token: string) =>
    request(t.server).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`);

  it('shows the limits in force: the plan, or an operator override', async () => {
    const account = await t.createAccount({ plan: 'free' });
    const token = await login(t, account);
    expect((await me(token).expect(200)).body.account).toMatchObject({
      id: account.accountId,
      plan: 'free',
      monthlyQuota: 10_000,
      rateLimitPerMinute: 120,
    });
    // What the CLI's set-rate-limit and set-quota do.
    const accounts = t.app.get(AccountsService);
    await accounts.setRateLimitOverride(account.accountId, 30);
    await accounts.setMonthlyQuotaOverride(account.accountId, 500);
    expect((await me(token).expect(200)).body.account).toMatchObject({
      plan: 'free',
      monthlyQuota: 500,
      rateLimitPerMinute: 30,
    });
  });

  it('says whether two-factor sign-in is on for the user (MFA_STATUS)', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    expect((await me(token).expect(200)).body.user.mfaEnabled).toBe(false);
    const auth = { Authorization: `Bearer ${token}` };
    const setup = await request(t.server).post('/api/v1/auth/mfa/totp/setup').set(auth).expect(200);
    const code = await generate({ secret: setup.body.secret, crypto: nodeCrypto, base32 });
    await request(t.server)
      .post('/api/v1/auth/mfa/totp/enable')
      .set(auth)
      .send({ code })
      .expect(200);
    expect((await me(token).expect(200)).body.user).toEqual({
      id: account.userId,
      email: account.email,
      role: 'owner',
      mfaEnabled: true,
    });
  });

  it('refuses API keys and missing credentials', async () => {
    const account = await t.createAccount();
    const key = await createApiKey(t, await login(t, account), ['usage:read']);
    const byKey = await request(t.server)
      .get('/api/v1/auth/me')
      .set('X-API-Key', key.key)
      .expect(403);
    expect(byKey.body.code).toBe('API_KEY_SCOPE_MISSING');
    const none = await request(t.server).get('/api/v1/auth/me').expect(401);
    expect(none.body.code).toBe('API_KEY_MISSING');
  });
});
