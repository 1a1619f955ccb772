import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { PLAN_MAX_API_KEYS } from '../../src/accounts/plans';
import { JwtSecret } from '../../src/auth/tokens/jwt-secret';
import { AuthConfig, authConfig } from '../../src/config/auth.config';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login, loginPair } from '../helpers/auth';

/** JWT claims (issue 16: 7) and the API key cap and paginated list (issue 16: 6). */
describe('JWT claims, API key cap and key list pages', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(() => t?.close());

  /** Signs with the service's own secret: what a leaked secret or a buggy issuer could mint. */
  function forge(
    claims: Record<string, unknown>,
    options: { noTimestamp?: boolean; header?: Record<string, unknown> } = {},
  ) {
    const config = t.app.get<AuthConfig>(authConfig.KEY);
    return new JwtService().sign(claims, {
      secret: t.app.get(JwtSecret).value,
      algorithm: 'HS256',
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      ...options,
      header: { alg: 'HS256', typ: 'JWT', ...options.header },
    });
  }

  const stats = (token: string) =>
    request(t.server).get('/api/v1/usage/stats').set('Authorization', `Bearer ${token}`);

  it('refuses an access token without exp or without iat, and one whose sub is not its session’s user', async () => {
    const alice = await t.createAccount();
    const bob = await t.createAccount();
    const token = await login(t, alice);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<
      string,
      unknown
    >;
    await stats(token).expect(200);
    const { exp: _exp, iat: _iat, iss: _iss, aud: _aud, ...base } = claims;

    const noExp = forge(base);
    expect((await stats(noExp).expect(401)).body.code).toBe('JWT_INVALID');
    const noIat = forge(
      { ...base, exp: Math.floor(Date.now() / 1000) + 600 },
      { noTimestamp: true },
    );
    expect((await stats(noIat).expect(401)).body.code).toBe('JWT_INVALID');
    // The control: the same forged claims with exp and iat pass, so the two refusals above are exp/iat.
    const wellFormed = forge({ ...base, exp: Math.floor(Date.now() / 1000) + 600 });
    await stats(wellFormed).expect(200);

    // Alice's open session (sid), but Bob's user and account: refused.
    const crossed = forge({
      ...base,
      sub: bob.userId,
      acc: bob.accountId,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    expect((await stats(crossed).expect(401)).body.code).toBe('JWT_INVALID');
    const otherAccount = forge({
      ...base,
      acc: bob.accountId,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    expect((await stats(otherAccount).expect(401)).body.code).toBe('JWT_INVALID');
  });

  it('refuses a token whose header names critical extensions (crit, RFC 7515 §4.1.11), on every route', async () => {
    const account = await t.createAccount();
    const { accessToken, refreshToken } = await loginPair(t, account);
    const claimsOf = (token: string) => {
      const {
        exp: _e,
        iat: _i,
        iss: _s,
        aud: _a,
        ...rest
      } = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<
        string,
        unknown
      >;
      return { ...rest, exp: Math.floor(Date.now() / 1000) + 600 };
    };
    const claims = claimsOf(accessToken);
    // The control: the same claims, signed the same way without crit, are accepted.
    await stats(forge(claims)).expect(200);

    for (const header of [
      { crit: ['exp'] },
      { crit: ['b64'], b64: false },
      { crit: ['urn:example:unknown'], 'urn:example:unknown': true },
      { crit: [] },
    ]) {
      const token = forge(claims, { header });
      const [encodedHeader] = token.split('.');
      expect(JSON.parse(Buffer.from(encodedHeader, 'base64url').toString())).toMatchObject(header);
      const refused = await stats(token).expect(401);
      expect({ header, code: refused.body.code }).toEqual({ header, code: 'JWT_INVALID' });
      // JWT-only routes (key management) too.
      const keys = await request(t.server)
        .get('/api/v1/api-keys')
        .set('Authorization', `Bearer ${token}`)
        .expect(401);
      expect(keys.body.code).toBe('JWT_INVALID');
    }
    // A refresh token with crit cannot end the login either (logout trusts a verified token).
    const critRefresh = forge(claimsOf(refreshToken), { header: { crit: ['exp'] } });
    const loggedOut = await request(t.server)
      .post('/api/v1/auth/logout')
      .send({ refreshToken: critRefresh })
      .expect(401);
    expect(loggedOut.body.code).toBe('JWT_INVALID');
    await stats(accessToken).expect(200);
  });

  it('caps active keys per plan with 409 API_KEY_LIMIT_REACHED; revoked keys do not count', async () => {
    const token = await login(t, await t.createAccount({ plan: 'free' }));
    const max = PLAN_MAX_API_KEYS.free;
    const ids: string[] = [];
    for (let i = 0; i < max; i += 1) ids.push((await createApiKey(t, token, ['usage:read'])).id);
    const post = () =>
      request(t.server)
        .post('/api/v1/api-keys')
        .set('Authorization', `Bearer ${token}`)
        .send({ name: 'one too many', scopes: ['usage:read'] });
    const refused = await post().expect(409);
    expect(refused.body).toMatchObject({ code: 'API_KEY_LIMIT_REACHED', phase: 'validation' });
    expect(refused.body.details).toEqual([{ limit: max, active: max }]);

    await request(t.server)
      .delete(`/api/v1/api-keys/${ids[0]}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    await post().expect(201);
    await post().expect(409);

    const pro = await t.createAccount({ plan: 'pro' });
    const proToken = await login(t, pro);
    for (let i = 0; i <= max; i += 1) await createApiKey(t, proToken, ['usage:read']);
  });

  it('lists keys in pages, newest first, following nextCursor to the end', async () => {
    const token = await login(t, await t.createAccount());
    const created: string[] = [];
    for (let i = 0; i < 7; i += 1) created.push((await createApiKey(t, token, ['usage:read'])).id);
    const page = (query: object) =>
      request(t.server)
        .get('/api/v1/api-keys')
        .query(query)
        .set('Authorization', `Bearer ${token}`);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: request.Response = await page(cursor ? { limit: 3, cursor } : { limit: 3 }).expect(
        200,
      );
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.items.map((k: { id: string }) => k.id));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(created));
    const all = await page({}).expect(200);
    expect(all.body.items.map((k: { id: string }) => k.id)).toEqual(seen);
    expect(all.body.nextCursor).toBeNull();
    const created0 = all.body.items.map((k: { createdAt: string }) => k.createdAt);
    expect([...created0].sort().reverse()).toEqual(created0);

    for (const bad of [
      { limit: 0 },
      { limit: 101 },
      { cursor: 'not a cursor!' },
      { cursor: Buffer.from(`1.${randomUUID()}x`).toString('base64url') },
    ]) {
      const res = await page(bad).expect(400);
      expect(res.body).toMatchObject({ code: 'INVALID_PARAMS', phase: 'validation' });
    }
  });
});
