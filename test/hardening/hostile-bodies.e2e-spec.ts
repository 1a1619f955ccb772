import request from 'supertest';
import { MAX_JSON_DEPTH } from '../../src/common/validation/json-shape';
import { PUBLIC_SIGNAL_COUNT } from '../../src/compliance/zk';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';

const ZERO = '0x0000000000000000000000000000000000000000';
/** `{"field":{"a":{"a":...}}}`: JSON text nested `depth` levels in all (built as text: too deep to stringify). */
const nestedBody = (depth: number) =>
  '{"field":' + '{"a":'.repeat(depth - 1) + '1' + '}'.repeat(depth - 1) + '}';
const nested = (depth: number) =>
  JSON.parse('{"a":'.repeat(depth - 1) + '1' + '}'.repeat(depth - 1));

describe('Hostile bodies, caching and wallet fields (issue 16: 1, 3, 5)', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let token: string;
  let key: string;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env });
    token = await login(t, await t.createAccount());
    key = (
      await createApiKey(t, token, [
        'defi:swap',
        'defi:liquidity',
        'defi:preflight',
        'onboarding:write',
        'compliance:verify',
      ])
    ).key;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  // Every kind of route: public, API-key, JWT-only, and the unversioned alias of spec §4.
  const routes: Array<[string, string, (r: request.Test) => request.Test]> = [
    ['public login', '/auth/login', (r) => r],
    ['API-key swap', '/api/v1/defi/swap', (r) => r.set('X-API-Key', key)],
    ['JWT key creation', '/api/v1/api-keys', (r) => r.set('Authorization', `Bearer ${token}`)],
    ['unversioned alias', '/onboarding/register', (r) => r.set('X-API-Key', key)],
    ['no credentials at all', '/api/v1/defi/liquidity', (r) => r],
  ];

  it.each(routes)(
    '%s: nesting past the limit is 400 INVALID_PARAMS (validation), never a 500',
    async (_label, path, auth) => {
      for (const depth of [MAX_JSON_DEPTH + 1, 200, 2_500]) {
        const body = nestedBody(depth);
        const res = await auth(request(t.server).post(path))
          .set('Content-Type', 'application/json')
          .send(body);
        expect({ depth, status: res.status, code: res.body.code, phase: res.body.phase }).toEqual({
          depth,
          status: 400,
          code: 'INVALID_PARAMS',
          phase: 'validation',
        });
        expect(res.body.details[0]).toMatchObject({ field: 'body', constraint: 'maxDepth' });
      }
      // At the limit the body is parsed and validated as usual: an unknown field, not a crash.
      const shallow = await auth(request(t.server).post(path)).send({
        field: nested(MAX_JSON_DEPTH - 1),
      });
      expect(shallow.status).toBe(400);
      expect(shallow.body.code).toBe('INVALID_PARAMS');
      expect(shallow.body.details).not.toContainEqual(
        expect.objectContaining({ constraint: 'maxDepth' }),
      );
    },
  );

  it('refuses a body with too many keys, and nested arrays, before validation', async () => {
    const wide = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${i}`, 1]));
    const res = await request(t.server).post('/auth/login').send(wide).expect(400);
    expect(res.body.details[0]).toMatchObject({ constraint: 'maxKeys' });
    const arrays = '['.repeat(3_000) + ']'.repeat(3_000);
    const deep = await request(t.server)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .send(arrays)
      .expect(400);
    expect(deep.body).toMatchObject({ code: 'INVALID_PARAMS', phase: 'validation' });
  });

  it('sends Cache-Control: no-store with tokens and new keys (login, refresh, create, list)', async () => {
    const account = await t.createAccount();
    const loginRes = await request(t.server)
      .post('/auth/login')
      .send({ email: account.email, password: account.password })
      .expect(200);
    expect(loginRes.headers['cache-control']).toBe('no-store');
    const refreshed = await request(t.server)
      .post('/api/v1/auth/refresh')
      .send({ refreshToken: loginRes.body.refreshToken })
      .expect(200);
    expect(refreshed.headers['cache-control']).toBe('no-store');
    const bearer = `Bearer ${refreshed.body.accessToken}`;
    const created = await request(t.server)
      .post('/api/v1/api-keys')
      .set('Authorization', bearer)
      .send({ name: 'k', scopes: ['defi:swap'] })
      .expect(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const listed = await request(t.server).get('/api/v1/api-keys').set('Authorization', bearer);
    expect(listed.headers['cache-control']).toBe('no-store');
    const refused = await request(t.server)
      .post('/auth/login')
      .send({ email: account.email, password: 'wrong password!' })
      .expect(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('refuses the zero address with 400 INVALID_ADDRESS in every wallet field', async () => {
    const { WETH, tUSDC } = chain.deployment.tokens;
    const asKey = (r: request.Test) => r.set('X-API-Key', key);
    const swap = { tokenIn: WETH, tokenOut: tUSDC, amount: '1000', userAddress: ZERO };
    const liquidity = {
      token0: WETH,
      token1: tUSDC,
      amount0: '1000',
      amount1: '1000',
      tickLower: -600,
      tickUpper: 600,
      userAddress: ZERO,
    };
    // Well-formed (the wallet is the only field at fault): validation refuses before any pairing.
    const verify = {
      walletAddress: ZERO,
      proof: {
        pi_a: ['1', '2', '1'],
        pi_b: [
          ['1', '2'],
          ['3', '4'],
          ['1', '0'],
        ],
        pi_c: ['1', '2', '1'],
        protocol: 'groth16',
        curve: 'bn128',
      },
      publicSignals: Array.from({ length: PUBLIC_SIGNAL_COUNT }, () => '1'),
    };
    const cases: Array<[string, request.Test]> = [
      [
        'register',
        asKey(request(t.server).post('/onboarding/register')).send({ walletAddress: ZERO }),
      ],
      [
        'activate',
        asKey(request(t.server).post('/api/v1/onboarding/activate-session-demo')).send({
          walletAddress: ZERO,
        }),
      ],
      ['nonce', asKey(request(t.server).get('/onboarding/nonce').query({ walletAddress: ZERO }))],
      ['preflight', asKey(request(t.server).get(`/defi/preflight/${ZERO}`))],
      ['swap', asKey(request(t.server).post('/api/v1/defi/swap')).send(swap)],
      ['liquidity', asKey(request(t.server).post('/api/v1/defi/liquidity')).send(liquidity)],
      ['verify', asKey(request(t.server).post('/verify')).send(verify)],
      [
        'challenge',
        asKey(request(t.server).get('/api/v1/verify/challenge').query({ walletAddress: ZERO })),
      ],
      ['session', asKey(request(t.server).get(`/api/v1/compliance/sessions/${ZERO}`))],
      ['positions', asKey(request(t.server).get('/api/v1/defi/positions').query({ owner: ZERO }))],
      [
        'collect',
        asKey(request(t.server).post('/api/v1/defi/liquidity/collect')).send({
          tokenId: '1',
          userAddress: ZERO,
        }),
      ],
    ];
    for (const [label, pending] of cases) {
      const res = await pending;
      expect({ label, status: res.status, code: res.body.code, phase: res.body.phase }).toEqual({
        label,
        status: 400,
        code: 'INVALID_ADDRESS',
        phase: 'validation',
      });
    }
    // A token field is not a wallet: the zero address there is not an address-format error.
    const token0 = await asKey(request(t.server).post('/api/v1/defi/swap')).send({
      ...swap,
      tokenIn: ZERO,
      userAddress: chain.wallets[1].address,
    });
    expect(token0.body.code).not.toBe('INVALID_ADDRESS');
  });

  it('refuses a lone UTF-16 surrogate in any string or key with 400, never a 500', async () => {
    const bodies = [
      { email: '\ud800', password: 'x' },
      { email: 'a@example.com', password: '\udc00' },
      { ['\ud800']: 1, email: 'a@example.com', password: 'x' },
    ];
    for (const body of bodies) {
      const res = await request(t.server)
        .post('/api/v1/auth/login')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      expect({ status: res.status, code: res.body.code, phase: res.body.phase }).toEqual({
        status: 400,
        code: 'INVALID_PARAMS',
        phase: 'validation',
      });
    }
    // A surrogate pair (an astral character) is text: it reaches the validators as usual.
    const astral = await request(t.server)
      .post('/api/v1/auth/login')
      .send({ email: 'nobody@example.com', password: '😀 pair' });
    expect(astral.status).toBe(401);
  });

  it('answers Unicode in string fields as data: a validation error or a refusal, never a 500', async () => {
    const samples = [
      '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
      '\u202e0x1234',
      'ａｄｍｉｎ@example.com',
      '\u0000',
      '😀'.repeat(500),
    ];
    for (const text of samples) {
      const loginRes = await request(t.server)
        .post('/auth/login')
        .send({ email: text, password: text });
      expect([400, 401]).toContain(loginRes.status);
      const swapRes = await request(t.server)
        .post('/api/v1/defi/swap')
        .set('X-API-Key', key)
        .send({ tokenIn: text, tokenOut: text, amount: text, userAddress: text });
      expect(swapRes.status).toBe(400);
    }
  });
});
