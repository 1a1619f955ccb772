import request from 'supertest';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { loginPair } from '../helpers/auth';
import { Argon2Gate } from '../../src/auth/users/argon2-gate';

describe('AuthController: login, refresh rotation, logout', () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    account = await t.createAccount();
  });
  afterAll(() => t.close());

  const keysWith = (token: string) =>
    request(t.server).get('/api/v1/api-keys').set('Authorization', `Bearer ${token}`);

  it('logs in at /auth/login and /api/v1/auth/login, case-insensitively on the email', async () => {
    for (const path of ['/auth/login', '/api/v1/auth/login']) {
      const res = await request(t.server)
        .post(path)
        .send({ email: account.email.toUpperCase(), password: account.password })
        .expect(200);
      expect(res.body).toEqual({
        accessToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        refreshToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        tokenType: 'Bearer',
        expiresIn: 900,
        refreshExpiresIn: 604800,
      });
      const header = JSON.parse(
        Buffer.from(res.body.accessToken.split('.')[0], 'base64url').toString(),
      );
      expect(header.alg).toBe('HS256');
      await keysWith(res.body.accessToken).expect(200);
    }
  });

  it('answers an unknown email and a wrong password with the same 401 body and the same argon2id work', async () => {
    const user = await t.createAccount();
    // What makes the timing alike is the work, not a stopwatch (which the machine's load would
    // decide): each refusal verifies exactly one argon2id hash, a dummy one for unknown emails.
    const verifications = jest.spyOn(t.app.get(Argon2Gate), 'verify');
    const refused = async (email: string) => {
      verifications.mockClear();
      const res = await request(t.server)
        .post('/auth/login')
        .send({ email, password: 'wrong password!' });
      expect(verifications).toHaveBeenCalledTimes(1);
      expect(await verifications.mock.results[0].value).toBe(false);
      return { res };
    };
    for (let i = 0; i < 3; i++) {
      const a = await refused(user.email);
      const b = await refused(`nobody-${i}@example.com`);
      expect(a.res.status).toBe(401);
      expect(b.res.body).toEqual(a.res.body);
    }
    // The dummy is a real argon2id hash with the users' parameters, not a cheap stand-in.
    const dummyHash = verifications.mock.calls[0][0];
    expect(dummyHash).toMatch(/^\$argon2id\$/);
    const body = (await refused('x@example.com')).res.body;
    verifications.mockRestore();
    expect(body).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      phase: 'auth',
      error: 'Unauthorized',
    });
  });

  it('limits login attempts per email and IP (10 a minute) with 429 and Retry-After', async () => {
    const victim = await t.createAccount();
    for (let i = 0; i < 10; i++) {
      await request(t.server)
        .post('/auth/login')
        .send({ email: victim.email, password: 'wrong password!' })
        .expect(401);
    }
    const res = await request(t.server)
      .post('/auth/login')
      .send({ email: victim.email, password: victim.password })
      .expect(429);
    expect(res.body.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number.isInteger(res.body.retryAfter)).toBe(true);
    expect(res.headers['retry-after']).toBe(String(res.body.retryAfter));
    // Another email from the same IP is not affected.
    await request(t.server)
      .post('/auth/login')
      .send({ email: account.email, password: account.password })
      .expect(200);
  });

  it('rotates refresh tokens; replaying a used one revokes the whole login', async () => {
    const first = await loginPair(t, account);
    const second = (
      await request(t.server)
        .post('/auth/refresh')
        .send({ refreshToken: first.refreshToken })
        .expect(200)
    ).body;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    await keysWith(second.accessToken).expect(200);
    const third = (
      await request(t.server)
        .post('/api/v1/auth/refresh')
        .send({ refreshToken: second.refreshToken })
        .expect(200)
    ).body;

    const replay = await request(t.server)
      .post('/auth/refresh')
      .send({ refreshToken: first.refreshToken })
      .expect(401);
    expect(replay.body.code).toBe('JWT_INVALID');
    expect(replay.body.message).toMatch(/already used/);
    // The family is revoked: the newest refresh token and every access token of the login are dead.
    expect(
      (await request(t.server).post('/auth/refresh').send({ refreshToken: third.refreshToken }))
        .body.code,
    ).toBe('JWT_INVALID');
    expect((await keysWith(third.accessToken)).body.code).toBe('JWT_INVALID');
    expect((await keysWith(first.accessToken)).body.code).toBe('JWT_INVALID');
    // Another login of the same user is untouched.
    const other = await loginPair(t, account);
    await keysWith(other.accessToken).expect(200);
  });

  it('refuses an access token as a refresh token, and garbage', async () => {
    const pair = await loginPair(t, account);
    expect(
      (
        await request(t.server)
          .post('/auth/refresh')
          .send({ refreshToken: pair.accessToken })
          .expect(401)
      ).body.code,
    ).toBe('JWT_INVALID');
    expect(
      (await request(t.server).post('/auth/refresh').send({ refreshToken: 'nope' }).expect(401))
        .body.code,
    ).toBe('JWT_INVALID');
    expect((await request(t.server).post('/auth/refresh').send({}).expect(400)).body.code).toBe(
      'INVALID_PARAMS',
    );
  });

  it('logout revokes the login: its access and refresh tokens stop working', async () => {
    const pair = await loginPair(t, account);
    await keysWith(pair.accessToken).expect(200);
    await request(t.server)
      .post('/auth/logout')
      .send({ refreshToken: pair.refreshToken })
      .expect(204);
    expect((await keysWith(pair.accessToken).expect(401)).body.code).toBe('JWT_INVALID');
    expect(
      (
        await request(t.server)
          .post('/auth/refresh')
          .send({ refreshToken: pair.refreshToken })
          .expect(401)
      ).body.code,
    ).toBe('JWT_INVALID');
    await request(t.server)
      .post('/api/v1/auth/logout')
      .send({ refreshToken: pair.refreshToken })
      .expect(204);
  });
});
