/**
 * Issue 13 item 4: the first mistakes an integrator makes each get an answer that says what to do.
 */
import { getAddress } from 'ethers';
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login, loginPair } from '../helpers/auth';
import { DefiDevnet, startDefiDevnet } from '../helpers/defi';
import { DefiConfigService } from '../../src/defi-builder/defi-config.service';
import type { RouteLayer } from '../../src/bootstrap/hot-routes';

describe('Rough edges an integrator hits first', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let jwt: string;
  let WETH: string;
  let TUSDC: string;
  const DEPRECATED_USDC = '0xDeAD00000000000000000000000000000005dc01';

  beforeAll(async () => {
    chain = await startDefiDevnet();
    t = await createTestApp({ env: { CHAIN_RPC_URL: chain.rpcUrl } });
    jwt = await login(t, await t.createAccount());
    ({ WETH, tUSDC: TUSDC } = chain.deployment.tokens);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  const swapBody = (over: object = {}) => ({
    tokenIn: WETH,
    tokenOut: TUSDC,
    amount: '1000000000000000',
    userAddress: chain.wallets[3].address,
    ...over,
  });

  it.each([
    ['form-encoded (curl -d without a header)', 'application/x-www-form-urlencoded', 'a=1'],
    ['JSON text labelled text/plain', 'text/plain', '{"email":"a@b.c","password":"x"}'],
  ])('answers a %s body with 415 UNSUPPORTED_MEDIA_TYPE, before auth', async (_l, type, body) => {
    for (const path of ['/auth/login', '/api/v1/defi/swap']) {
      const res = await request(t.server).post(path).set('Content-Type', type).send(body);
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({
        error: 'Unsupported Media Type',
        code: 'UNSUPPORTED_MEDIA_TYPE',
        phase: 'validation',
      });
      expect(res.body.hint).toContain('Content-Type: application/json');
      expect(res.body.message).toContain(type);
      expect(res.body.details).toBeUndefined();
    }
  });

  it('still serves JSON with a charset, and body-less POSTs reach validation', async () => {
    const res = await request(t.server)
      .post('/api/v1/defi/swap')
      .set('Authorization', `Bearer ${jwt}`)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify(swapBody()))
      .query({ buildOnly: 'true' });
    expect(res.status).toBe(200);
    const empty = await request(t.server).post('/auth/login');
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('INVALID_PARAMS');
  });

  it('tells a caller who sends an API key as a bearer token to use X-API-Key', async () => {
    const { key } = await createApiKey(t, jwt, ['usage:read']);
    const res = await request(t.server)
      .get('/api/v1/usage/stats')
      .set('Authorization', `Bearer ${key}`)
      .expect(401);
    expect(res.body.code).toBe('JWT_MISSING');
    expect(res.body.hint).toContain('X-API-Key');
    const plain = await request(t.server)
      .get('/api/v1/usage/stats')
      .set('Authorization', 'Basic abc')
      .expect(401);
    expect(plain.body.hint).not.toContain('X-API-Key header (X-API-Key');
    await request(t.server).get('/api/v1/usage/stats').set('X-API-Key', key).expect(200);
  });

  it('answers malformed JSON without pointing at details it does not have', async () => {
    const res = await request(t.server)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email": ')
      .expect(400);
    expect(res.body.code).toBe('INVALID_PARAMS');
    expect(res.body.details).toBeUndefined();
    expect(res.body.hint).not.toMatch(/details/i);
    expect(res.body.hint).toContain('JSON');
  });

  it('suggests the checksummed form of an address with a wrong EIP-55 checksum', async () => {
    const right = chain.wallets[3].address;
    const wrong = '0x' + right.slice(2, 12).toLowerCase() + right.slice(12).toUpperCase();
    expect(wrong).not.toBe(right);
    const res = await request(t.server)
      .post('/api/v1/defi/swap')
      .send(swapBody({ userAddress: wrong }))
      .expect(400);
    const expected = getAddress(wrong.toLowerCase());
    expect(res.body.code).toBe('INVALID_ADDRESS');
    expect(res.body.hint).toContain(expected);
    expect(res.body.details).toEqual([
      expect.objectContaining({ field: 'userAddress', suggestion: expected }),
    ]);
    expect(res.body.details[0].message).toContain(expected);
  });

  it('keeps the envelope to its documented fields: facts go into details', async () => {
    const deprecated = await request(t.server)
      .post('/api/v1/defi/swap')
      .set('Authorization', `Bearer ${jwt}`)
      .send(swapBody({ tokenOut: DEPRECATED_USDC }))
      .expect(400);
    expect(deprecated.body.code).toBe('UNSUPPORTED_TOKEN');
    expect(Object.keys(deprecated.body).sort()).toEqual(
      ['code', 'details', 'error', 'hint', 'message', 'phase'].sort(),
    );
    expect(deprecated.body.details).toEqual([
      { field: 'tokenOut', deprecated: true, replacedBy: TUSDC },
    ]);

    const noSession = await request(t.server)
      .post('/api/v1/defi/swap')
      .set('Authorization', `Bearer ${jwt}`)
      .send(swapBody())
      .expect(412);
    expect(noSession.body).not.toHaveProperty('activeUntil');
    expect(noSession.body.details).toEqual([{ activeUntil: null }]);
  });

  it('does not publish a configured CHAIN_RPC_URL in the config (it may hold a key)', async () => {
    const res = await request(t.server)
      .get('/api/v1/defi/config')
      .set('Authorization', `Bearer ${jwt}`)
      .expect(200);
    expect(res.body.chain).toEqual({ chainId: 84532, name: expect.any(String) });
  });

  it('tells a caller whose refresh token was replayed to log in again', async () => {
    const pair = await loginPair(t, await t.createAccount());
    const rotated = await request(t.server)
      .post('/auth/refresh')
      .send({ refreshToken: pair.refreshToken })
      .expect(200);
    // Its successor used, the first token's replay is reuse (not a retry within the grace window).
    await request(t.server)
      .post('/auth/refresh')
      .send({ refreshToken: rotated.body.refreshToken })
      .expect(200);
    const replay = await request(t.server)
      .post('/auth/refresh')
      .send({ refreshToken: pair.refreshToken })
      .expect(401);
    expect(replay.body.code).toBe('JWT_INVALID');
    expect(replay.body.hint).toContain('POST /auth/login');
    expect(replay.body.hint).not.toContain('/auth/refresh with your refresh token');
  });
});

describe('GET /api/v1/defi/config on the embedded devnet', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(); // no CHAIN_RPC_URL: the service runs the devnet itself
  });
  afterAll(() => t?.close());

  it('carries chain.rpcUrl, a JSON-RPC endpoint of chainId 84532', async () => {
    const jwt = await login(t, await t.createAccount());
    const res = await request(t.server)
      .get('/api/v1/defi/config')
      .set('Authorization', `Bearer ${jwt}`)
      .expect(200);
    expect(res.body.chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const rpc = await fetch(res.body.chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect(((await rpc.json()) as { result: string }).result).toBe('0x14a34');
  });

  it('answers the bytes res.json would write for the document, serialized once (issue 59)', async () => {
    const account = await t.createAccount();
    const jwt = await login(t, account);
    const { key } = await createApiKey(t, jwt, ['defi:preflight']);
    const document = t.app.get(DefiConfigService).config();
    for (const [authMethod, header, value] of [
      ['jwt', 'Authorization', `Bearer ${jwt}`],
      ['api_key', 'X-API-Key', key],
    ]) {
      const res = await request(t.server).get('/api/v1/defi/config').set(header, value).expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.text).toBe(JSON.stringify({ authMethod, ...document }));
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
    }
    // Express tries the DeFi routes before the others (bootstrap/hot-routes.ts).
    const stack = (t.app.getHttpAdapter().getInstance() as { router: { stack: RouteLayer[] } })
      .router.stack;
    const routes = stack.flatMap((layer) => (layer.route ? [layer.route.path] : []));
    const firstOf = (test: (path: string) => boolean) => routes.findIndex(test);
    const defi = firstOf((path) => path.startsWith('/api/v1/defi/'));
    expect(defi).toBeGreaterThan(-1);
    expect(defi).toBeLessThan(firstOf((path) => path === '/health/live'));
    expect(defi).toBeLessThan(firstOf((path) => path === '/api/v1/api-keys'));
  });
});
