import { Wallet } from 'ethers';
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';
import { SIGNED_TRANSACTION_EXAMPLE } from '../../src/defi-builder/broadcast/dto/relay-transaction.dto';

type Operation = {
  operationId: string;
  security?: unknown[];
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  requestBody?: unknown;
};

/**
 * Every protected response is one caller's (issue 30: 4c): the authentication guard marks all of
 * them `Cache-Control: no-store`. This walks the served OpenAPI document, so a new route is
 * checked without being listed here; only a body that passes validation must be added below.
 */
describe('Cache-Control: no-store on every protected route', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let token: string;
  let apiKey: string;
  const wallet = Wallet.createRandom().address;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env });
    token = await login(t, await t.createAccount({ plan: 'pro' }));
    apiKey = (await createApiKey(t, token, ['onboarding:write', 'compliance:verify'])).key;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  /** A body each operation's validation accepts, so that the request reaches the guard. */
  function validBody(operationId: string): object | undefined {
    const { WETH, tUSDC } = chain.deployment.tokens;
    const bodies: Record<string, object> = {
      createApiKey: { name: 'no-store', scopes: ['usage:read'] },
      register: { walletAddress: wallet },
      activateSessionDemo: { walletAddress: wallet },
      activateSessionAttestation: { walletAddress: wallet },
      setCompliancePolicy: {
        sources: { mode: 'any', names: ['default'] },
        countries: {},
        minSessionSeconds: 0,
      },
      evaluateCompliancePolicy: { walletAddress: wallet },
      verify: {
        walletAddress: wallet,
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
        publicSignals: Array.from({ length: 8 }, () => '1'),
      },
      swap: { tokenIn: WETH, tokenOut: tUSDC, amount: '1000', userAddress: wallet },
      quote: { tokenIn: WETH, tokenOut: tUSDC, amount: '1000' },
      addLiquidity: {
        token0: WETH,
        token1: tUSDC,
        amount0: '1000',
        amount1: '1000',
        tickLower: -600,
        tickUpper: 600,
        userAddress: wallet,
      },
      increaseLiquidity: { tokenId: '1', userAddress: wallet, amount0: '1000', amount1: '1000' },
      decreaseLiquidity: { tokenId: '1', userAddress: wallet, liquidityBps: 5_000 },
      collectFees: { tokenId: '1', userAddress: wallet },
      relayTransaction: { signedTransaction: SIGNED_TRANSACTION_EXAMPLE },
      updateApiKey: { name: 'renamed' },
      createInvitation: { email: 'invitee@example.com', role: 'viewer' },
      updateMemberRole: { role: 'viewer' },
      createWebhook: { url: 'http://127.0.0.1:9/hook', events: ['session.activated'] },
      updateWebhook: { active: false },
      enableTotp: { code: '123456' },
      disableTotp: { code: '123456' },
      updateAccountSecurity: { mfaRequired: false },
      approveApproval: {},
      rejectApproval: { reason: 'no-store' },
    };
    return bodies[operationId];
  }

  async function protectedOperations(): Promise<Array<[string, string, Operation]>> {
    const doc = (await request(t.server).get('/docs/json').expect(200)).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    return Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.security !== undefined)
        .map(([method, op]): [string, string, Operation] => [method, path, op]),
    );
  }

  async function requestFor(method: string, path: string, op: Operation) {
    const values: Record<string, string> = {
      ...(path.includes('{id}') ? { id: (await createApiKey(t, token, ['usage:read'])).id } : {}),
      address: wallet,
      tokenId: '1',
      walletAddress: wallet,
      owner: wallet,
      txHash: '0x' + 'ab'.repeat(32),
      // Nobody's: a member route answers 404, which must be no-store too.
      userId: '00000000-0000-4000-8000-000000000000',
    };
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (!(name in values)) throw new Error(`${op.operationId}: no test value for {${name}}`);
      return values[name];
    });
    const query: Record<string, string> = {};
    for (const param of op.parameters ?? []) {
      if (param.in !== 'query' || !param.required) continue;
      if (!(param.name in values))
        throw new Error(`${op.operationId}: no test value for ?${param.name}`);
      query[param.name] = values[param.name];
    }
    const body = op.requestBody === undefined ? undefined : validBody(op.operationId);
    if (op.requestBody !== undefined && body === undefined)
      throw new Error(`${op.operationId}: add a body its validation accepts to validBody()`);
    return (authorization?: string) => {
      let req = request(t.server)[method as 'get' | 'post' | 'delete'](url).query(query);
      if (authorization) req = req.set('Authorization', authorization);
      return body === undefined ? req : req.send(body);
    };
  }

  it('walks the OpenAPI document: signed in or refused, every protected answer is no-store', async () => {
    const operations = await protectedOperations();
    const ids = operations.map(([, , op]) => op.operationId);
    // The three of issue 30 are among them (and the walk is not empty).
    expect(ids).toEqual(expect.arrayContaining(['getUsageStats', 'challenge', 'nonce']));

    const seen: Array<{
      operation: string;
      status: number;
      cacheControl: unknown;
      pragma: unknown;
    }> = [];
    for (const [method, path, op] of operations) {
      const send = await requestFor(method, path, op);
      const signedIn = await send(`Bearer ${token}`);
      seen.push({
        operation: `${method.toUpperCase()} ${path} (${signedIn.status})`,
        status: signedIn.status,
        cacheControl: signedIn.headers['cache-control'],
        pragma: signedIn.headers.pragma,
      });
      // Validation runs before authentication: a 401 without credentials shows the request
      // passed it, so the signed-in one above reached the guard and its handler.
      const refused = await send();
      expect({ operation: op.operationId, status: refused.status }).toEqual({
        operation: op.operationId,
        status: 401,
      });
      seen.push({
        operation: `${method.toUpperCase()} ${path} (401)`,
        status: refused.status,
        cacheControl: refused.headers['cache-control'],
        pragma: refused.headers.pragma,
      });
    }
    expect(seen.filter((s) => s.cacheControl !== 'no-store' || s.pragma !== 'no-cache')).toEqual(
      [],
    );
    // Mostly successes, not only refusals: the header is on the data itself.
    expect(seen.filter((s) => s.status < 300).length).toBeGreaterThanOrEqual(8);
  });

  it('the one-time values (verify challenge, SIWE nonce) are no-store on both paths, with an API key', async () => {
    for (const path of [
      '/verify/challenge',
      '/api/v1/verify/challenge',
      '/onboarding/nonce',
      '/api/v1/onboarding/nonce',
    ]) {
      const res = await request(t.server)
        .get(path)
        .query({ walletAddress: wallet })
        .set('X-API-Key', apiKey)
        .expect(200);
      expect({ path, cacheControl: res.headers['cache-control'] }).toEqual({
        path,
        cacheControl: 'no-store',
      });
    }
    const stats = await request(t.server)
      .get('/api/v1/usage/stats')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(stats.headers['cache-control']).toBe('no-store');
  });
});
