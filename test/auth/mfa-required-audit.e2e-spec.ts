/**
 * Issue 47: a login refused with MFA_REQUIRED is a failed login of that user, and the account's
 * audit trail shows it (`auth.login_failed`, reason `mfa_required`, or `mfa_enrollment_required`
 * when the account requires two-factor sign-in of a member who has none).
 */
import { generate } from '@otplib/totp';
import request from 'supertest';
import { base32, nodeCrypto } from '../../src/auth/mfa/otp-plugins';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';

describe('AuthService: refused MFA_REQUIRED logins are audited', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const failedLogins = async (token: string) =>
    (
      await request(t.server)
        .get('/api/v1/audit-events?type=auth.login_failed')
        .set('Authorization', `Bearer ${token}`)
        .expect(200)
    ).body.items;

  const loginWithoutOtp = (account: TestAccount) =>
    request(t.server)
      .post('/auth/login')
      .set('X-Request-Id', `mfa-required-${account.userId}`)
      .send({ email: account.email, password: account.password })
      .expect(401);

  it('records a login without the code of an enrolled user', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const auth = `Bearer ${token}`;
    const setup = await request(t.server)
      .post('/api/v1/auth/mfa/totp/setup')
      .set('Authorization', auth)
      .expect(200);
    const code = await generate({ secret: setup.body.secret, crypto: nodeCrypto, base32 });
    await request(t.server)
      .post('/api/v1/auth/mfa/totp/enable')
      .set('Authorization', auth)
      .send({ code })
      .expect(200);

    const refused = await loginWithoutOtp(account);
    expect(refused.body.code).toBe('MFA_REQUIRED');
    expect(await failedLogins(token)).toEqual([
      expect.objectContaining({
        actor: { type: 'user', id: null },
        target: { type: 'user', id: account.userId },
        data: { email: account.email, reason: 'mfa_required' },
        requestId: `mfa-required-${account.userId}`,
      }),
    ]);
  });

  it('records a login of a member the account requires to enrol', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    await request(t.server)
      .patch('/api/v1/account/security')
      .set('Authorization', `Bearer ${token}`)
      .send({ mfaRequired: true })
      .expect(200);

    const refused = await loginWithoutOtp(account);
    expect(refused.body).toMatchObject({
      code: 'MFA_REQUIRED',
      details: [expect.objectContaining({ enrollmentRequired: true })],
    });
    expect(await failedLogins(token)).toEqual([
      expect.objectContaining({
        target: { type: 'user', id: account.userId },
        data: { email: account.email, reason: 'mfa_enrollment_required' },
      }),
    ]);
  });
});
