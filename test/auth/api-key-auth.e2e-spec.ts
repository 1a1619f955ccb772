import { JwtService } from '@nestjs/jwt';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKey } from '../../src/auth/api-keys/api-key.entity';
import { SCOPES } from '../../src/auth/scopes';
import { JwtSecret } from '../../src/auth/tokens/jwt-secret';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login, loginPair } from '../helpers/auth';
import { AuthProbeController } from './auth-probe.controller';

const SWAP = '/api/v1/test-protected/swap';
const BODY = { label: 'x', count: 1 };

function expectAuthError(res: request.Response, status: number, code: string) {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.body.phase).toBe('auth');
  expect(typeof res.body.hint).toBe('string');
  expect(res.body.hint.length).toBeGreaterThan(0);
  expect(res.headers['ratelimit-limit']).toBeUndefined();
}

describe('ApiKeyOrJwtGuard (spec §5, issue 3 point 3)', () => {
  let t: TestApp;
  let account: TestAccount;
  let accessToken: string;

  beforeAll(async () => {
    t = await createTestApp({ extra: { controllers: [AuthProbeController] } });
    account = await t.createAccount();
    accessToken = await login(t, account);
  });
  afterAll(() => t.close());

  const swap = () => request(t.server).post(SWAP).send(BODY);
  const keys = () => t.app.get(DataSource).getRepository(ApiKey);
  const expire = (id: string) =>
    keys().update({ id }, { expiresAt: new Date(Date.now() - 60_000) });

  it('runs validation before authentication: a malformed body without credentials is 400', async () => {
    const res = await request(t.server).post(SWAP).send({ label: 5 }).expect(400);
    expect(res.body.code).toBe('INVALID_PARAMS');
  });

  it('answers API_KEY_MISSING without credentials, with a hint naming both methods', async () => {
    const res = await swap();
    expectAuthError(res, 401, 'API_KEY_MISSING');
    expect(res.body.hint).toMatch(/X-API-Key/);
    expect(res.body.hint).toMatch(/Bearer/);
  });

  it('requires a principal on routes without a decorator (default deny)', async () => {
    expectAuthError(
      await request(t.server).get('/api/v1/test-protected/any'),
      401,
      'API_KEY_MISSING',
    );
  });

  it('walks the failure order: format, prefix, hash, active, expiry, scope', async () => {
    const good = await createApiKey(t, accessToken, ['defi:swap']);
    const tail = good.key.slice(-48);
    const lookup = tail.slice(0, 12);
    expectAuthError(await swap().set('X-API-Key', 'not-a-key'), 401, 'API_KEY_FORMAT_INVALID');
    expectAuthError(
      await swap().set('X-API-Key', `zzz_test_${tail}`),
      401,
      'API_KEY_FORMAT_INVALID',
    );
    expectAuthError(
      await swap().set('X-API-Key', `cgk_test_${tail.toUpperCase()}`),
      401,
      'API_KEY_FORMAT_INVALID',
    );
    expectAuthError(await swap().set('X-API-Key', ''), 401, 'API_KEY_FORMAT_INVALID');
    expectAuthError(
      await swap().set('X-API-Key', `cgk_test_${'0'.repeat(48)}`),
      401,
      'API_KEY_PREFIX_NOT_FOUND',
    );
    const flipped = `${lookup}${tail.slice(12).replace(/.$/, (c) => (c === '0' ? '1' : '0'))}`;
    expectAuthError(
      await swap().set('X-API-Key', `cgk_test_${flipped}`),
      401,
      'API_KEY_HASH_MISMATCH',
    );
    expectAuthError(
      await swap().set('X-API-Key', `cgk_live_${tail}`),
      401,
      'API_KEY_HASH_MISMATCH',
    );

    const revoked = await createApiKey(t, accessToken, ['defi:swap']);
    await request(t.server)
      .delete(`/api/v1/api-keys/${revoked.id}`)
      .set('Authorization', `Bearer ${accessToken}`)
      .expect(200);
    expectAuthError(await swap().set('X-API-Key', revoked.key), 401, 'API_KEY_INACTIVE');

    const revokedAndExpired = await createApiKey(t, accessToken, ['defi:swap']);
    await request(t.server)
      .delete(`/api/v1/api-keys/${revokedAndExpired.id}`)
      .set('Authorization', `Bearer ${accessToken}`)
      .expect(200);
    await expire(revokedAndExpired.id);
    expectAuthError(await swap().set('X-API-Key', revokedAndExpired.key), 401, 'API_KEY_INACTIVE');

    const expiredWithoutScope = await createApiKey(t, accessToken, ['usage:read']);
    await expire(expiredWithoutScope.id);
    expectAuthError(await swap().set('X-API-Key', expiredWithoutScope.key), 401, 'API_KEY_EXPIRED');

    const withoutScope = await createApiKey(t, accessToken, ['usage:read', 'defi:preflight']);
    const res = await swap().set('X-API-Key', withoutScope.key);
    expect({ status: res.status, code: res.body.code }).toEqual({
      status: 403,
      code: 'API_KEY_SCOPE_MISSING',
    });
    expect(res.body.details).toEqual([
      {
        requiredScope: 'defi:swap',
        keyScopes: ['usage:read', 'defi:preflight'],
        keyId: withoutScope.id,
      },
    ]);

    const ok = await swap().set('X-API-Key', good.key).expect(201);
    expect(ok.body).toEqual({
      authMethod: 'api_key',
      ok: true,
      label: 'x',
      accountId: account.accountId,
    });
  });

  it('accepts a key whose expiry is in the future', async () => {
    const key = await createApiKey(t, accessToken, ['defi:swap'], {
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    await swap().set('X-API-Key', key.key).expect(201);
  });

  it('uses the API key exclusively when X-API-Key is present, even beside a valid Bearer', async () => {
    expectAuthError(
      await swap().set('X-API-Key', 'garbage').set('Authorization', `Bearer ${accessToken}`),
      401,
      'API_KEY_FORMAT_INVALID',
    );
    const key = await createApiKey(t, accessToken, ['defi:preflight']);
    const res = await request(t.server)
      .get('/api/v1/test-protected/preflight/0xabc')
      .set('X-API-Key', key.key)
      .set('Authorization', `Bearer ${accessToken}`)
      .expect(200);
    expect(res.body.authMethod).toBe('api_key');
    expect(res.body.principal).toEqual({
      method: 'api_key',
      accountId: account.accountId,
      apiKeyId: key.id,
      scopes: ['defi:preflight'],
    });
  });

  it('falls back to the Bearer JWT: JWT_MISSING, JWT_INVALID, and success with every scope', async () => {
    expectAuthError(await swap().set('Authorization', 'Basic dXNlcjpwYXNz'), 401, 'JWT_MISSING');
    expectAuthError(await swap().set('Authorization', 'Bearer'), 401, 'JWT_MISSING');
    const invalid = await swap().set('Authorization', 'Bearer a.b.c');
    expectAuthError(invalid, 401, 'JWT_INVALID');
    expect(invalid.body.hint).toMatch(/\/auth\/login/);
    expect(invalid.body.hint).toMatch(/\/auth\/refresh/);
    const ok = await swap().set('Authorization', `Bearer ${accessToken}`).expect(201);
    expect(ok.body.authMethod).toBe('jwt');
    const res = await request(t.server)
      .get('/api/v1/test-protected/preflight/0x1')
      .set('Authorization', `bearer ${accessToken}`)
      .expect(200);
    expect(res.body.principal).toMatchObject({
      method: 'jwt',
      accountId: account.accountId,
      userId: account.userId,
    });
    expect(res.body.principal.scopes).toEqual([...SCOPES]);
  });

  it('refuses tokens that are expired, of the wrong type, algorithm, issuer or audience', async () => {
    const jwt = new JwtService();
    const secret = t.app.get(JwtSecret).value;
    const { refreshToken } = await loginPair(t, account);
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString());
    const sign = (payload: object, options: Record<string, unknown> = {}) =>
      jwt.sign({ ...claims, ...payload }, { secret, algorithm: 'HS256', ...options });
    const now = Math.floor(Date.now() / 1000);
    const cases = {
      refreshAsAccess: refreshToken,
      expiredBeyondSkew: sign({ iat: now - 1000, exp: now - 61 }),
      wrongIssuer: sign({ iss: 'someone-else' }),
      wrongAudience: sign({ aud: 'other-api' }),
      wrongTyp: sign({ typ: 'refresh' }),
      hs512: sign({}, { algorithm: 'HS512' }),
      otherSecret: jwt.sign(claims, { secret: 'x'.repeat(40), algorithm: 'HS256' }),
      none: `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${accessToken.split('.')[1]}.`,
    };
    for (const [name, token] of Object.entries(cases)) {
      const res = await swap().set('Authorization', `Bearer ${token}`);
      expect({ name, status: res.status, code: res.body.code }).toEqual({
        name,
        status: 401,
        code: 'JWT_INVALID',
      });
    }
    // Within the 60 s clock skew an expired token still passes.
    await swap()
      .set('Authorization', `Bearer ${sign({ iat: now - 1000, exp: now - 30 })}`)
      .expect(201);
  });

  it('refuses API keys on dashboard (JWT-only) endpoints with a clear hint', async () => {
    const key = await createApiKey(t, accessToken, ['defi:swap', 'usage:read']);
    const res = await request(t.server).get('/api/v1/api-keys').set('X-API-Key', key.key);
    expect({ status: res.status, code: res.body.code }).toEqual({
      status: 403,
      code: 'API_KEY_SCOPE_MISSING',
    });
    expect(res.body.hint).toMatch(/dashboard login \(JWT\)/i);
  });

  it('maps an unexpected failure after auth to 500 without leaking', async () => {
    const res = await request(t.server)
      .get('/api/v1/test-protected/fail')
      .set('Authorization', `Bearer ${accessToken}`)
      .expect(500);
    expect(res.body.code).toBe('INTERNAL_ERROR');
    expect(res.headers['ratelimit-limit']).toBeDefined();
  });
});
