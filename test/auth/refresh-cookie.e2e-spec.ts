import request from 'supertest';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';

/**
 * Issue 53 item 4, the dashboard's refresh token in a cookie: asked for at login
 * (refreshTokenIn: "cookie"), it travels only as the HttpOnly, SameSite=Strict cgk_refresh cookie
 * scoped to /auth/refresh (Secure over HTTPS), never in an answer; a JSON refresh with the cookie
 * rotates it; logout by the access token ends the login and clears it. The body transport of API
 * clients is unchanged.
 */
describe('AuthController: the refresh token in an HttpOnly cookie', () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    // TRUST_PROXY: a request forwarded as HTTPS by a proxy on loopback counts as HTTPS.
    t = await createTestApp({ env: { TRUST_PROXY: 'loopback' } });
    account = await t.createAccount();
  });
  afterAll(() => t.close());

  const cookieLogin = (over: Record<string, string> = {}) =>
    request(t.server)
      .post('/auth/login')
      .set(over)
      .send({ email: account.email, password: account.password, refreshTokenIn: 'cookie' })
      .expect(200);
  /** The cgk_refresh Set-Cookie line of a response, split into its attributes. */
  const setCookie = (res: request.Response) => {
    const lines = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    const line = lines.find((l) => l.startsWith('cgk_refresh='));
    if (!line) return undefined;
    const [pair, ...attributes] = line.split(/;\s*/);
    return { value: pair.slice('cgk_refresh='.length), attributes };
  };
  const keysWith = (token: string) =>
    request(t.server).get('/api/v1/api-keys').set('Authorization', `Bearer ${token}`);

  it('logs in with the refresh token in an HttpOnly, SameSite=Strict cookie for /auth/refresh only, not in the answer', async () => {
    const res = await cookieLogin();
    expect(res.body).toEqual({
      accessToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      tokenType: 'Bearer',
      expiresIn: 900,
      refreshExpiresIn: 604800,
    });
    const cookie = setCookie(res)!;
    expect(cookie.value).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(cookie.attributes).toEqual(
      expect.arrayContaining([
        'Max-Age=604800',
        'Path=/auth/refresh',
        'HttpOnly',
        'SameSite=Strict',
      ]),
    );
    // Plain HTTP (a local demo): not Secure, or the browser would never send it back.
    expect(cookie.attributes).not.toContain('Secure');
    // Behind a TLS-terminating proxy the service trusts: Secure.
    const https = setCookie(await cookieLogin({ 'X-Forwarded-Proto': 'https' }))!;
    expect(https.attributes).toEqual(expect.arrayContaining(['Secure', 'HttpOnly']));
    // API clients keep the body transport, and no cookie.
    const body = await request(t.server)
      .post('/auth/login')
      .send({ email: account.email, password: account.password })
      .expect(200);
    expect(body.body.refreshToken).toEqual(expect.any(String));
    expect(setCookie(body)).toBeUndefined();
  });

  it('refreshes with the cookie and a JSON body: a new access token, the rotated token in the cookie only', async () => {
    const login = setCookie(await cookieLogin())!;
    const res = await request(t.server)
      .post('/auth/refresh')
      .set('Cookie', `cgk_refresh=${login.value}`)
      .send({})
      .expect(200);
    expect(res.body.refreshToken).toBeUndefined();
    await keysWith(res.body.accessToken).expect(200);
    const rotated = setCookie(res)!;
    expect(rotated.value).not.toBe(login.value);
    expect(rotated.attributes).toEqual(
      expect.arrayContaining(['Path=/auth/refresh', 'HttpOnly', 'SameSite=Strict']),
    );
    // The rotated cookie works in turn.
    await request(t.server)
      .post('/auth/refresh')
      .set('Cookie', `cgk_refresh=${rotated.value}`)
      .send({})
      .expect(200);
  });

  it('refuses the cookie without a JSON body (a form or a simple cross-site request), and clears a refused cookie', async () => {
    const login = setCookie(await cookieLogin())!;
    const bare = await request(t.server)
      .post('/auth/refresh')
      .set('Cookie', `cgk_refresh=${login.value}`)
      .expect(400);
    expect(bare.body).toMatchObject({
      code: 'INVALID_PARAMS',
      details: [{ field: 'refreshToken', constraint: 'cookieNeedsJsonBody' }],
    });
    const form = await request(t.server)
      .post('/auth/refresh')
      .set('Cookie', `cgk_refresh=${login.value}`)
      .type('form')
      .send('refreshToken=')
      .expect(415);
    expect(form.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    // Neither used the token: it still refreshes.
    await request(t.server)
      .post('/auth/refresh')
      .set('Cookie', `cgk_refresh=${login.value}`)
      .send({})
      .expect(200);

    const refused = await request(t.server)
      .post('/auth/refresh')
      .set('Cookie', 'cgk_refresh=not-a-token')
      .send({})
      .expect(401);
    expect(refused.body.code).toBe('JWT_INVALID');
    expect(setCookie(refused)).toMatchObject({
      value: '',
      attributes: expect.arrayContaining([
        'Path=/auth/refresh',
        'Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      ]),
    });
    // Neither a body token nor a cookie: the field is named.
    const none = await request(t.server).post('/auth/refresh').send({}).expect(400);
    expect(none.body.details[0]).toMatchObject({ field: 'refreshToken' });
  });

  it('logs out by the access token: the login ends (the cookie refreshes no more) and the cookie is cleared', async () => {
    const res = await cookieLogin();
    const { value } = setCookie(res)!;
    const out = await request(t.server)
      .post('/auth/logout')
      .set('Authorization', `Bearer ${res.body.accessToken}`)
      .send({})
      .expect(204);
    expect(setCookie(out)).toMatchObject({
      value: '',
      attributes: expect.arrayContaining(['Path=/auth/refresh', 'HttpOnly']),
    });
    expect((await keysWith(res.body.accessToken).expect(401)).body.code).toBe('JWT_INVALID');
    const after = await request(t.server)
      .post('/auth/refresh')
      .set('Cookie', `cgk_refresh=${value}`)
      .send({})
      .expect(401);
    expect(after.body.code).toBe('JWT_INVALID');
    // Without a refresh token or an access token there is no login to end.
    expect((await request(t.server).post('/auth/logout').send({}).expect(401)).body.code).toBe(
      'JWT_MISSING',
    );
  });
});
