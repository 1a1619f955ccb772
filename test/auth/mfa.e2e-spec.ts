import { generate } from '@otplib/totp';
import request from 'supertest';
import { base32, nodeCrypto } from '../../src/auth/mfa/otp-plugins';
import { UsersService } from '../../src/auth/users/users.service';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';

/** The code an authenticator app shows `stepsAhead` periods from now (the server accepts ±1). */
const codeAt = (secret: string, stepsAhead = 0) =>
  generate({
    secret,
    crypto: nodeCrypto,
    base32,
    epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead,
  });

describe('MfaService: TOTP two-factor sign-in', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const api = (token: string) => ({
    post: (path: string, body?: object) =>
      request(t.server).post(path).set('Authorization', `Bearer ${token}`).send(body),
    get: (path: string) => request(t.server).get(path).set('Authorization', `Bearer ${token}`),
    patch: (path: string, body: object) =>
      request(t.server).patch(path).set('Authorization', `Bearer ${token}`).send(body),
  });
  const loginWith = (account: TestAccount, otp?: string) =>
    request(t.server)
      .post('/auth/login')
      .send({ email: account.email, password: account.password, ...(otp ? { otp } : {}) });

  async function enrol(account: TestAccount) {
    const token = await login(t, account);
    const setup = await api(token).post('/api/v1/auth/mfa/totp/setup').expect(200);
    const enable = await api(token)
      .post('/api/v1/auth/mfa/totp/enable', { code: await codeAt(setup.body.secret) })
      .expect(200);
    return { token, secret: setup.body.secret as string, recoveryCodes: enable.body.recoveryCodes };
  }

  it('sets up a secret with its otpauth URI and QR code; login is unchanged until enabled', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const setup = await api(token).post('/api/v1/auth/mfa/totp/setup').expect(200);
    expect(setup.body).toEqual({
      authMethod: 'jwt',
      secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
      otpauthUri: expect.stringMatching(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]{32}/),
      qrCodeDataUrl: expect.stringMatching(/^data:image\/png;base64,/),
    });
    expect(decodeURIComponent(setup.body.otpauthUri)).toContain(account.email);
    await loginWith(account).expect(200);
    expect((await api(token).get('/api/v1/auth/mfa').expect(200)).body).toEqual({
      authMethod: 'jwt',
      enabled: false,
      requiredByAccount: false,
    });
    // A wrong code does not enable it.
    const wrong = await api(token).post('/api/v1/auth/mfa/totp/enable', { code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('MFA_INVALID');
    await loginWith(account).expect(200);
  });

  it('enables with a code computed from the secret; login then needs otp, once per code', async () => {
    const account = await t.createAccount();
    const { token, secret, recoveryCodes } = await enrol(account);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await api(token).get('/api/v1/auth/mfa').expect(200)).body.enabled).toBe(true);

    const without = await loginWith(account).expect(401);
    expect(without.body).toMatchObject({ code: 'MFA_REQUIRED', phase: 'auth' });
    expect(without.body.hint).toMatch(/otp/);

    const wrong = await loginWith(account, '123456').expect(401);
    expect(wrong.body).toMatchObject({ code: 'MFA_INVALID', phase: 'auth' });

    // The enabling code's step is spent: the next step's code (within the ±1 window) logs in.
    const next = await codeAt(secret, 1);
    const ok = await loginWith(account, next).expect(200);
    expect(ok.body).toMatchObject({ tokenType: 'Bearer', accessToken: expect.any(String) });
    expect(ok.body.recoveryCodes).toBeUndefined();

    const reused = await loginWith(account, next).expect(401);
    expect(reused.body.code).toBe('MFA_INVALID');
    // An earlier step than the last used one is refused as well.
    expect((await loginWith(account, await codeAt(secret, 0)).expect(401)).body.code).toBe(
      'MFA_INVALID',
    );
    // A wrong password still answers INVALID_CREDENTIALS before any second factor.
    const badPassword = await request(t.server)
      .post('/auth/login')
      .send({ email: account.email, password: 'wrong password!', otp: next });
    expect(badPassword.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('takes a recovery code once (any case, with or without its dash)', async () => {
    const account = await t.createAccount();
    const { recoveryCodes } = await enrol(account);
    const [first, second] = recoveryCodes as string[];
    await loginWith(account, first.toUpperCase()).expect(200);
    expect((await loginWith(account, first).expect(401)).body.code).toBe('MFA_INVALID');
    await loginWith(account, second.replace('-', '')).expect(200);
  });

  it('counts wrong codes toward the failed-login limit of the IP', async () => {
    const limited = await createTestApp({ env: { AUTH_FAILED_LOGINS_PER_IP_PER_MINUTE: '3' } });
    try {
      const account = await limited.createAccount();
      const token = await login(limited, account);
      const setup = await request(limited.server)
        .post('/api/v1/auth/mfa/totp/setup')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      await request(limited.server)
        .post('/api/v1/auth/mfa/totp/enable')
        .set('Authorization', `Bearer ${token}`)
        .send({ code: await codeAt(setup.body.secret) })
        .expect(200);
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await request(limited.server)
          .post('/auth/login')
          .send({ email: account.email, password: account.password, otp: '000000' });
        codes.push(res.status);
      }
      expect(codes).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });

  it('disables with a recovery code; setup is refused while enabled', async () => {
    const account = await t.createAccount();
    const { token, recoveryCodes } = await enrol(account);
    const again = await api(token).post('/api/v1/auth/mfa/totp/setup').expect(400);
    expect(again.body.code).toBe('INVALID_PARAMS');
    const wrong = await api(token).post('/api/v1/auth/mfa/totp/disable', { code: '000000' });
    expect(wrong.body.code).toBe('MFA_INVALID');
    await api(token).post('/api/v1/auth/mfa/totp/disable', { code: recoveryCodes[3] }).expect(204);
    await loginWith(account).expect(200);
    expect((await api(token).get('/api/v1/auth/mfa').expect(200)).body.enabled).toBe(false);
    // Already off: nothing to protect, nothing to do.
    await api(token).post('/api/v1/auth/mfa/totp/disable', { code: '000000' }).expect(204);
  });

  it('refuses API keys on the MFA routes', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const key = await api(token)
      .post('/api/v1/api-keys', { name: 'k', scopes: ['usage:read'] })
      .expect(201);
    const res = await request(t.server)
      .post('/api/v1/auth/mfa/totp/setup')
      .set('X-API-Key', key.body.key);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('API_KEY_SCOPE_MISSING');
  });

  it('an account requiring MFA makes members without it enrol at login, then always ask', async () => {
    const owner = await t.createAccount();
    const ownerToken = await login(t, owner);
    const set = await api(ownerToken)
      .patch('/api/v1/account/security', { mfaRequired: true })
      .expect(200);
    expect(set.body).toEqual({ authMethod: 'jwt', mfaRequired: true });
    expect((await api(ownerToken).get('/api/v1/account/security').expect(200)).body).toEqual({
      authMethod: 'jwt',
      mfaRequired: true,
    });
    expect((await api(ownerToken).get('/api/v1/auth/mfa').expect(200)).body).toEqual({
      authMethod: 'jwt',
      enabled: false,
      requiredByAccount: true,
    });
    // The owner had none either: nobody is locked out, the next login enrols.
    expect((await loginWith(owner).expect(401)).body.details).toEqual([
      { enrollmentRequired: true },
    ]);

    // A second user of that account, without an authenticator.
    const users = t.app.get(UsersService);
    const user = await users.build(owner.accountId, `m-${owner.email}`, owner.password, 'viewer');
    await users.insert(user);
    const colleague = { ...owner, userId: user.id, email: user.email };

    const refused = await loginWith(colleague).expect(401);
    expect(refused.body.code).toBe('MFA_REQUIRED');
    expect(refused.body.details).toEqual([{ enrollmentRequired: true }]);
    expect(refused.body.hint).toMatch(/\/auth\/mfa\/totp\/enroll/);

    // Not for a member of an account that does not require it.
    const elsewhere = await t.createAccount();
    const notRequired = await request(t.server)
      .post('/auth/mfa/totp/enroll')
      .send({ email: elsewhere.email, password: elsewhere.password })
      .expect(400);
    expect(notRequired.body.code).toBe('INVALID_PARAMS');
    const wrongPassword = await request(t.server)
      .post('/auth/mfa/totp/enroll')
      .send({ email: colleague.email, password: 'wrong password!' });
    expect(wrongPassword.body.code).toBe('INVALID_CREDENTIALS');
    const setup = await request(t.server)
      .post('/auth/mfa/totp/enroll')
      .send({ email: colleague.email, password: colleague.password })
      .expect(200);
    expect(await loginWith(colleague, '000000').then((r) => r.body.code)).toBe('MFA_INVALID');
    const done = await loginWith(colleague, await codeAt(setup.body.secret)).expect(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    expect((await loginWith(colleague).expect(401)).body.code).toBe('MFA_REQUIRED');
    await loginWith(colleague, done.body.recoveryCodes[0]).expect(200);
    // Only the owner changes the policy.
    const byViewer = await api(done.body.accessToken).patch('/api/v1/account/security', {
      mfaRequired: false,
    });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.code).toBe('ROLE_FORBIDDEN');
  });
});
