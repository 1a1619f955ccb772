/**
 * Every error code the DeFi builder endpoints can return, with status and phase (spec §7), in
 * pipeline order: validation -> auth -> preflight -> build.
 */
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { bindWallet, DefiDevnet, startDefiDevnet } from '../helpers/defi';
import { closedPortUrl } from '../helpers/ports';

type Method = 'get' | 'post';
interface Case {
  name: string;
  method: Method;
  path: string | (() => string);
  body?: object | (() => object);
  auth?: 'jwt' | 'none' | 'preflightKey';
  status: number;
  code: string;
  phase: string;
  hint?: string | RegExp;
}

describe('DeFi builder error codes (status, phase)', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let jwt: string;
  let preflightKey: string;
  let otherAccountWallet: string;
  let WETH: string;
  let TUSDC: string;
  let user: string;
  const DEPRECATED_USDC = '0xDeAD00000000000000000000000000000005dc01';
  const UNKNOWN_TOKEN = '0x1111111111111111111111111111111111111111';

  beforeAll(async () => {
    chain = await startDefiDevnet();
    t = await createTestApp({ env: { CHAIN_RPC_URL: chain.rpcUrl } });
    jwt = await login(t, await t.createAccount());
    preflightKey = (await createApiKey(t, jwt, ['defi:preflight'])).key;
    const other = await t.createAccount();
    otherAccountWallet = chain.wallets[9].address;
    await bindWallet(t, otherAccountWallet, other.accountId);
    ({ WETH, tUSDC: TUSDC } = chain.deployment.tokens);
    user = chain.wallets[2].address; // no session
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  const swap =
    (over: object = {}) =>
    () => ({
      tokenIn: WETH,
      tokenOut: TUSDC,
      amount: '1000000000000000',
      userAddress: user,
      ...over,
    });
  const mint =
    (over: object = {}) =>
    () => ({
      token0: WETH,
      token1: TUSDC,
      amount0: '1000',
      amount1: '1000',
      tickLower: -600,
      tickUpper: 600,
      userAddress: user,
      ...over,
    });
  const S = '/api/v1/defi/swap';
  const L = '/api/v1/defi/liquidity';
  const P = '/api/v1/defi/positions';
  const UNKNOWN_POSITION = '999999';
  const decrease =
    (over: object = {}) =>
    () => ({ tokenId: UNKNOWN_POSITION, userAddress: user, liquidityBps: 5000, ...over });

  const cases: Case[] = [
    // --- validation (before auth: no credentials needed to get these)
    {
      name: 'swap: amount not a decimal integer',
      method: 'post',
      path: S,
      body: swap({ amount: '1.5' }),
      auth: 'none',
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'swap: amount zero',
      method: 'post',
      path: S,
      body: swap({ amount: '0' }),
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'swap: amount >= 2^128',
      method: 'post',
      path: S,
      body: swap({ amount: (1n << 128n).toString() }),
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'swap: tokenIn == tokenOut',
      method: 'post',
      path: S,
      body: () => swap({ tokenOut: WETH })(),
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'swap: zeroForOne contradicts the tokens',
      method: 'post',
      path: S,
      body: swap({ zeroForOne: false }),
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'swap: slippageBps > 5000',
      method: 'post',
      path: S,
      body: swap({ slippageBps: 5001 }),
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'swap: deadline in the past',
      method: 'post',
      path: S,
      body: swap({ deadline: 1_000_000 }),
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'swap: unknown field',
      method: 'post',
      path: S,
      body: swap({ recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }),
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'swap: buildOnly not a boolean',
      method: 'post',
      path: `${S}?buildOnly=yes`,
      body: swap(),
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'swap: malformed userAddress',
      method: 'post',
      path: S,
      body: swap({ userAddress: '0x123' }),
      auth: 'none',
      status: 400,
      code: 'INVALID_ADDRESS',
      phase: 'validation',
    },
    {
      name: 'swap: bad EIP-55 checksum',
      method: 'post',
      path: S,
      body: swap({ tokenIn: '0x77139fa81c4434893f9D7e033C3e3903C46B820D' }),
      status: 400,
      code: 'INVALID_ADDRESS',
      phase: 'validation',
    },
    {
      name: 'liquidity: token0 > token1',
      method: 'post',
      path: L,
      body: () => mint({ token0: TUSDC, token1: WETH })(),
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'liquidity: missing tickUpper',
      method: 'post',
      path: L,
      body: () => {
        const b: Record<string, unknown> = mint()();
        delete b.tickUpper;
        return b;
      },
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'liquidity: non-integer tick',
      method: 'post',
      path: L,
      body: mint({ tickLower: 1.5 }),
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'preflight: malformed address',
      method: 'get',
      path: '/defi/preflight/0xnothex',
      auth: 'none',
      status: 400,
      code: 'INVALID_ADDRESS',
      phase: 'validation',
    },
    // --- auth
    {
      name: 'swap: no credentials',
      method: 'post',
      path: S,
      body: swap(),
      auth: 'none',
      status: 401,
      code: 'API_KEY_MISSING',
      phase: 'auth',
    },
    {
      name: 'swap: key without defi:swap',
      method: 'post',
      path: S,
      body: swap(),
      auth: 'preflightKey',
      status: 403,
      code: 'API_KEY_SCOPE_MISSING',
      phase: 'auth',
    },
    {
      name: 'liquidity: key without defi:liquidity',
      method: 'post',
      path: L,
      body: mint(),
      auth: 'preflightKey',
      status: 403,
      code: 'API_KEY_SCOPE_MISSING',
      phase: 'auth',
    },
    // --- preflight
    {
      name: 'swap: wallet bound to another account',
      method: 'post',
      path: S,
      body: () => swap({ userAddress: otherAccountWallet })(),
      status: 403,
      code: 'INSTITUTION_OWNERSHIP_MISMATCH',
      phase: 'preflight',
      hint: '/onboarding/register',
    },
    {
      name: 'liquidity: wallet bound to another account',
      method: 'post',
      path: L,
      body: () => mint({ userAddress: otherAccountWallet })(),
      status: 403,
      code: 'INSTITUTION_OWNERSHIP_MISMATCH',
      phase: 'preflight',
    },
    {
      name: 'preflight: wallet bound to another account',
      method: 'get',
      path: '',
      status: 403,
      code: 'INSTITUTION_OWNERSHIP_MISMATCH',
      phase: 'preflight',
    },
    {
      name: 'swap: token not whitelisted',
      method: 'post',
      path: S,
      body: swap({ tokenOut: UNKNOWN_TOKEN }),
      status: 400,
      code: 'UNSUPPORTED_TOKEN',
      phase: 'preflight',
      hint: /tUSDC 0x/,
    },
    {
      name: 'swap: deprecated stablecoin names its replacement',
      method: 'post',
      path: S,
      body: swap({ tokenOut: DEPRECATED_USDC }),
      status: 400,
      code: 'UNSUPPORTED_TOKEN',
      phase: 'preflight',
      hint: /Use tUSDC at 0x/,
    },
    {
      name: 'liquidity: deprecated stablecoin',
      method: 'post',
      path: L,
      body: mint({ token1: DEPRECATED_USDC }),
      status: 400,
      code: 'UNSUPPORTED_TOKEN',
      phase: 'preflight',
      hint: /Use tUSDC/,
    },
    {
      name: 'swap: no active session',
      method: 'post',
      path: S,
      body: swap(),
      status: 412,
      code: 'SESSION_NOT_ACTIVE',
      phase: 'preflight',
      hint: /activate-session-attestation.*\/verify.*activate-session-demo/,
    },
    {
      name: 'liquidity: no active session',
      method: 'post',
      path: L,
      body: mint(),
      status: 412,
      code: 'SESSION_NOT_ACTIVE',
      phase: 'preflight',
    },
    // --- build
    {
      name: 'liquidity: ticks off the spacing',
      method: 'post',
      path: `${L}?buildOnly=true`,
      body: mint({ tickLower: -601 }),
      status: 400,
      code: 'BUILD_FAILED',
      phase: 'build',
      hint: /multiple of 60/,
    },
    {
      name: 'liquidity: zero liquidity for the amounts',
      method: 'post',
      path: `${L}?buildOnly=true`,
      body: mint({ amount0: '1', amount1: '1', tickLower: -887220, tickUpper: 887220 }),
      status: 400,
      code: 'BUILD_FAILED',
      phase: 'build',
    },
    {
      name: 'swap: quote fails (amount beyond pool liquidity)',
      method: 'post',
      path: `${S}?buildOnly=true`,
      body: () => swap({ tokenIn: TUSDC, tokenOut: WETH, amount: (10n ** 38n).toString() })(),
      status: 400,
      code: 'BUILD_FAILED',
      phase: 'build',
      hint: /amountOutMinimum/,
    },
    // --- positions (issue 12)
    {
      name: 'positions: malformed owner',
      method: 'get',
      path: `${P}?owner=0x123`,
      auth: 'none',
      status: 400,
      code: 'INVALID_ADDRESS',
      phase: 'validation',
    },
    {
      name: 'position: tokenId not a decimal integer',
      method: 'get',
      path: `${P}/12abc`,
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'decrease: burn with a partial share',
      method: 'post',
      path: `${L}/decrease`,
      body: decrease({ burn: true }),
      auth: 'none',
      status: 400,
      code: 'INVALID_PARAMS',
      phase: 'validation',
    },
    {
      name: 'decrease: key without defi:liquidity',
      method: 'post',
      path: `${L}/decrease`,
      body: decrease(),
      auth: 'preflightKey',
      status: 403,
      code: 'API_KEY_SCOPE_MISSING',
      phase: 'auth',
    },
    {
      name: 'positions: a key with defi:preflight may list',
      method: 'get',
      path: `${P}/${UNKNOWN_POSITION}`,
      auth: 'preflightKey',
      status: 404,
      code: 'POSITION_NOT_FOUND',
      phase: 'preflight',
    },
    {
      name: 'decrease: wallet bound to another account',
      method: 'post',
      path: `${L}/decrease`,
      body: () => decrease({ userAddress: otherAccountWallet })(),
      status: 403,
      code: 'INSTITUTION_OWNERSHIP_MISMATCH',
      phase: 'preflight',
    },
    {
      name: 'positions: owner bound to another account',
      method: 'get',
      path: () => `${P}?owner=${otherAccountWallet}`,
      status: 403,
      code: 'INSTITUTION_OWNERSHIP_MISMATCH',
      phase: 'preflight',
    },
    {
      name: 'collect: unknown tokenId (no session needed: 404, never 412)',
      method: 'post',
      path: `${L}/collect`,
      body: () => ({ tokenId: UNKNOWN_POSITION, userAddress: user }),
      status: 404,
      code: 'POSITION_NOT_FOUND',
      phase: 'preflight',
      hint: /GET \/api\/v1\/defi\/positions\?owner=/,
    },
    {
      name: 'increase: unknown tokenId is 404 before the session gate',
      method: 'post',
      path: `${L}/increase`,
      body: () => ({ tokenId: UNKNOWN_POSITION, userAddress: user, amount0: '1', amount1: '1' }),
      status: 404,
      code: 'POSITION_NOT_FOUND',
      phase: 'preflight',
    },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const path =
      (typeof c.path === 'function' ? c.path() : c.path) || `/defi/preflight/${otherAccountWallet}`;
    let req =
      c.method === 'get'
        ? request(t.server).get(path)
        : request(t.server)
            .post(path)
            .send(typeof c.body === 'function' ? c.body() : (c.body ?? {}));
    if ((c.auth ?? 'jwt') === 'jwt') req = req.set('Authorization', `Bearer ${jwt}`);
    if (c.auth === 'preflightKey') req = req.set('X-API-Key', preflightKey);
    const res = await req;
    expect({ status: res.status, code: res.body.code, phase: res.body.phase }).toEqual({
      status: c.status,
      code: c.code,
      phase: c.phase,
    });
    expect(typeof res.body.message).toBe('string');
    expect(typeof res.body.hint).toBe('string');
    if (c.hint) expect(res.body.hint).toMatch(c.hint);
    if (c.code === 'INVALID_PARAMS') expect(Array.isArray(res.body.details)).toBe(true);
  });

  it('answers 503 CHAIN_UNAVAILABLE fast when the RPC is down (never a hang or a 500)', async () => {
    const down = await createTestApp({ env: { CHAIN_RPC_URL: await closedPortUrl() } });
    try {
      const token = await login(down, await down.createAccount());
      const started = Date.now();
      for (const r of [
        request(down.server).post(S).set('Authorization', `Bearer ${token}`).send(swap()()),
        request(down.server).get(`/defi/preflight/${user}`).set('Authorization', `Bearer ${token}`),
      ]) {
        const res = await r;
        expect({ status: res.status, code: res.body.code, phase: res.body.phase }).toEqual({
          status: 503,
          code: 'CHAIN_UNAVAILABLE',
          phase: 'preflight',
        });
        expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
      }
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await down.close();
    }
  });
});
