import { createHmac } from 'node:crypto';
import request from 'supertest';
import { SCOPES } from '../../src/auth/scopes';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login, loginPair } from '../helpers/auth';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';

const SECRET = 'owasp-suite-secret-0123456789-abcdefghij';
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function forge(header: object, payload: object, secret?: string): string {
  const unsigned = `${b64(header)}.${b64(payload)}`;
  const signature = secret ? createHmac('sha256', secret).update(unsigned).digest('base64url') : '';
  return `${unsigned}.${signature}`;
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
}

/** The OWASP API Security Top 10 cases that apply to this service, as real requests. */
describe('OWASP API Top 10', () => {
  let chain: DevnetHandle;
  let t: TestApp;
  let alice: TestAccount;
  let bob: TestAccount;
  let aliceJwt: string;
  let bobJwt: string;
  let aliceKey: string;

  beforeAll(async () => {
    chain = await acquireDevnet();
    t = await createTestApp({ env: { ...chain.env, JWT_SECRET: SECRET } });
    alice = await t.createAccount();
    bob = await t.createAccount();
    aliceJwt = await login(t, alice);
    bobJwt = await login(t, bob);
    aliceKey = (await createApiKey(t, aliceJwt, [...SCOPES])).key;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.release();
  });

  describe('API1 broken object level authorization', () => {
    it("refuses to build for, or read, another account's wallet", async () => {
      const bobsWallet = chain.wallets[5].address;
      await request(t.server)
        .post('/onboarding/register')
        .set('Authorization', `Bearer ${bobJwt}`)
        .send({ walletAddress: bobsWallet })
        .expect(200);
      const swap = await request(t.server)
        .post('/api/v1/defi/swap?buildOnly=true')
        .set('X-API-Key', aliceKey)
        .send({
          tokenIn: chain.addresses.WETH,
          tokenOut: chain.addresses.tUSDC,
          amount: '1000',
          userAddress: bobsWallet,
        });
      expect(swap.status).toBe(403);
      expect(swap.body.code).toBe('INSTITUTION_OWNERSHIP_MISMATCH');
      const preflight = await request(t.server)
        .get(`/api/v1/defi/preflight/${bobsWallet}`)
        .set('X-API-Key', aliceKey);
      expect(preflight.status).toBe(403);
      expect(preflight.body.code).toBe('INSTITUTION_OWNERSHIP_MISMATCH');
    });

    it("never lists or revokes another account's keys", async () => {
      const bobKey = await createApiKey(t, bobJwt, ['usage:read'], { name: 'bob-secret-key' });
      const list = await request(t.server)
        .get('/api/v1/api-keys')
        .set('Authorization', `Bearer ${aliceJwt}`)
        .expect(200);
      expect(JSON.stringify(list.body)).not.toContain(bobKey.id);
      expect(JSON.stringify(list.body)).not.toContain('bob-secret-key');
      const revoke = await request(t.server)
        .delete(`/api/v1/api-keys/${bobKey.id}`)
        .set('Authorization', `Bearer ${aliceJwt}`);
      expect(revoke.status).toBe(404);
      expect(revoke.body.code).toBe('NOT_FOUND');
      await request(t.server).get('/api/v1/usage/stats').set('X-API-Key', bobKey.key).expect(200);
    });

    it("does not reveal another account's usage through keyId", async () => {
      const bobKey = await createApiKey(t, bobJwt, ['usage:read']);
      await request(t.server).get('/api/v1/usage/stats').set('X-API-Key', bobKey.key).expect(200);
      const res = await request(t.server)
        .get(`/api/v1/usage/stats?keyId=${bobKey.id}`)
        .set('X-API-Key', aliceKey);
      expect([200, 404]).toContain(res.status);
      if (res.status === 200) expect(res.body.totals.requests).toBe(0);
    });
  });

  describe('API3 mass assignment', () => {
    it.each([
      ['/api/v1/api-keys', { name: 'x', scopes: ['usage:read'], accountId: 'someone-else' }],
      ['/api/v1/api-keys', { name: 'x', scopes: ['usage:read'], active: false, keyHash: 'ab' }],
      [
        '/onboarding/register',
        { walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', accountId: 'x' },
      ],
    ])('refuses unknown fields on %s', async (path, body) => {
      const res = await request(t.server)
        .post(path)
        .set('Authorization', `Bearer ${aliceJwt}`)
        .send(body)
        .expect(400);
      expect(res.body.code).toBe('INVALID_PARAMS');
      expect(res.body.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ constraint: 'unknownField' })]),
      );
    });

    it('cannot grant itself scopes that do not exist', async () => {
      const res = await request(t.server)
        .post('/api/v1/api-keys')
        .set('Authorization', `Bearer ${aliceJwt}`)
        .send({ name: 'x', scopes: ['admin:*'] })
        .expect(400);
      expect(res.body.code).toBe('INVALID_PARAMS');
    });
  });

  describe('API4 unrestricted resource consumption', () => {
    it('refuses oversized bodies before authentication, with and without credentials', async () => {
      const huge = JSON.stringify({ name: 'x'.repeat(64 * 1024) });
      for (const auth of [{}, { Authorization: `Bearer ${aliceJwt}` }]) {
        const res = await request(t.server)
          .post('/api/v1/api-keys')
          .set(auth)
          .set('Content-Type', 'application/json')
          .send(huge);
        expect(res.status).toBe(413);
        expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
      }
    });
  });

  describe('API2 broken authentication', () => {
    const access = () => claimsOf(aliceJwt);

    it('refuses alg "none"', async () => {
      const token = forge({ alg: 'none', typ: 'JWT' }, access());
      const res = await request(t.server)
        .get('/api/v1/usage/stats')
        .set('Authorization', `Bearer ${token}`)
        .expect(401);
      expect(res.body.code).toBe('JWT_INVALID');
    });

    it('refuses a token for another audience or issuer, even when correctly signed', async () => {
      for (const change of [{ aud: 'someone-else' }, { iss: 'evil' }]) {
        const token = forge({ alg: 'HS256', typ: 'JWT' }, { ...access(), ...change }, SECRET);
        const res = await request(t.server)
          .get('/api/v1/usage/stats')
          .set('Authorization', `Bearer ${token}`)
          .expect(401);
        expect(res.body.code).toBe('JWT_INVALID');
      }
      // Control: the same forging with unchanged claims is accepted, so the refusals above are real.
      const control = forge({ alg: 'HS256', typ: 'JWT' }, access(), SECRET);
      await request(t.server)
        .get('/api/v1/usage/stats')
        .set('Authorization', `Bearer ${control}`)
        .expect(200);
    });

    it('refuses a refresh token used as an access token, and the reverse', async () => {
      const pair = await loginPair(t, alice);
      const asAccess = await request(t.server)
        .get('/api/v1/usage/stats')
        .set('Authorization', `Bearer ${pair.refreshToken}`)
        .expect(401);
      expect(asAccess.body.code).toBe('JWT_INVALID');
      const asRefresh = await request(t.server)
        .post('/auth/refresh')
        .send({ refreshToken: pair.accessToken })
        .expect(401);
      expect(asRefresh.body.code).toBe('JWT_INVALID');
    });

    it('refuses an expired token', async () => {
      const token = forge(
        { alg: 'HS256', typ: 'JWT' },
        { ...access(), exp: Math.floor(Date.now() / 1000) - 3_600 },
        SECRET,
      );
      const res = await request(t.server)
        .get('/api/v1/usage/stats')
        .set('Authorization', `Bearer ${token}`)
        .expect(401);
      expect(res.body.code).toBe('JWT_INVALID');
    });
  });

  describe('API5 broken function level authorization', () => {
    it('keeps key management for dashboard logins only', async () => {
      const res = await request(t.server)
        .get('/api/v1/api-keys')
        .set('X-API-Key', aliceKey)
        .expect(403);
      expect(res.body.code).toBe('API_KEY_SCOPE_MISSING');
    });

    it('holds a key to its scopes', async () => {
      const { key } = await createApiKey(t, aliceJwt, ['usage:read']);
      const res = await request(t.server)
        .get(`/api/v1/defi/preflight/${chain.wallets[1].address}`)
        .set('X-API-Key', key)
        .expect(403);
      expect(res.body.code).toBe('API_KEY_SCOPE_MISSING');
    });
  });
});
