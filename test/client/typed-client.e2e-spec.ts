/**
 * Issue 13 item 2: an integrator's whole path through the generated, typed client (openapi-fetch):
 * login -> API key -> config -> session -> preflight -> swap -> sign & broadcast on the devnet.
 */
import type { AddressInfo } from 'node:net';
import { AccountsService } from '../../src/accounts/accounts.service';
import { createDefiClient, wholeBuild, type ErrorEnvelope } from '../../clients/typescript/src';
import { createTestApp, TestApp } from '../helpers/app';
import { DefiDevnet, startDefiDevnet } from '../helpers/defi';

describe('Typed TypeScript client (clients/typescript)', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    chain = await startDefiDevnet();
    t = await createTestApp({ env: { CHAIN_RPC_URL: chain.rpcUrl }, listen: true });
    baseUrl = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it('drives login -> key -> preflight -> swap -> broadcast', async () => {
    const account = await t.createAccount();
    const user = chain.wallets[4];

    const login = await createDefiClient({ baseUrl }).POST('/api/v1/auth/login', {
      body: { email: account.email, password: account.password },
    });
    expect(login.error).toBeUndefined();
    const accessToken: string = login.data!.accessToken;

    const dashboard = createDefiClient({ baseUrl, accessToken });
    const created = await dashboard.POST('/api/v1/api-keys', {
      body: { name: 'typed client', scopes: ['defi:swap', 'defi:preflight', 'onboarding:write'] },
    });
    expect(created.response.status).toBe(201);
    const key: string = created.data!.key;
    expect(key).toMatch(/^cgk_test_[0-9a-f]{48}$/);

    const api = createDefiClient({ baseUrl, apiKey: key });
    const config = await api.GET('/api/v1/defi/config');
    const bySymbol = Object.fromEntries(config.data!.tokens.map((x) => [x.symbol, x.address]));
    expect(config.data!.chain.chainId).toBe(84532);

    const activation = await api.POST('/api/v1/onboarding/activate-session-demo', {
      body: { walletAddress: user.address },
    });
    expect(activation.response.status).toBe(200);

    const preflight = await api.GET('/api/v1/defi/preflight/{address}', {
      params: { path: { address: user.address } },
    });
    expect(preflight.data!.session.active).toBe(true);

    const body = {
      tokenIn: bySymbol.WETH,
      tokenOut: bySymbol.tUSDC,
      amount: '10000000000000000',
      userAddress: user.address,
    };
    const first = await api.POST('/api/v1/defi/swap', { body });
    expect(first.error).toBeUndefined();
    for (const approval of wholeBuild(first.data!).approvals) {
      expect((await chain.send(user, approval.transaction)).status).toBe(1);
    }
    const swap = await api.POST('/api/v1/defi/swap', { body });
    const built = wholeBuild(swap.data!);
    expect(built.approvals).toEqual([]);
    const before = await chain.balanceOf(bySymbol.tUSDC, user.address);
    const receipt = await chain.send(user, built.transaction);
    expect(receipt.status).toBe(1);
    expect(await chain.balanceOf(bySymbol.tUSDC, user.address)).toBeGreaterThan(before);
  });

  it("sends the compliance policy's GET answer back with PUT as it is, without a cast (issue 53)", async () => {
    const account = await t.createAccount();
    const login = await createDefiClient({ baseUrl }).POST('/api/v1/auth/login', {
      body: { email: account.email, password: account.password },
    });
    const dashboard = createDefiClient({ baseUrl, accessToken: login.data!.accessToken });
    const read = await dashboard.GET('/api/v1/compliance/policy');
    expect(read.data!.version).toBe(0);
    const policy = read.data!;
    const written = await dashboard.PUT('/api/v1/compliance/policy', {
      body: { ...policy, countries: { ...policy.countries, deny: ['KP'] } },
    });
    expect(written.response.status).toBe(200);
    expect(written.data!).toMatchObject({
      version: 1,
      countries: { deny: ['KP'], unknown: 'refuse' },
    });
    const again = await dashboard.PUT('/api/v1/compliance/policy', { body: written.data! });
    expect(again.data!.version).toBe(2);
  });

  it('types the error envelope: code and hint', async () => {
    const account = await t.createAccount();
    const login = await createDefiClient({ baseUrl }).POST('/api/v1/auth/login', {
      body: { email: account.email, password: 'wrong password' },
    });
    expect(login.data).toBeUndefined();
    const error: ErrorEnvelope = login.error!;
    expect(error.code).toBe('INVALID_CREDENTIALS');
    expect(error.phase).toBe('auth');
    expect(error.hint.length).toBeGreaterThan(10);

    const noKey = await createDefiClient({ baseUrl }).POST('/api/v1/defi/swap', {
      body: {
        tokenIn: chain.deployment.tokens.WETH,
        tokenOut: chain.deployment.tokens.tUSDC,
        amount: '1',
        userAddress: chain.wallets[5].address,
      },
    });
    expect(noKey.error?.code).toBe('API_KEY_MISSING');
    expect(noKey.error?.hint).toContain('X-API-Key');
  });

  it('retries a 429 after retryAfter, and hands it back when told not to retry', async () => {
    const account = await t.createAccount();
    await t.app.get(AccountsService).setRateLimitOverride(account.accountId, 1);
    const token = (
      await createDefiClient({ baseUrl }).POST('/api/v1/auth/login', {
        body: { email: account.email, password: account.password },
      })
    ).data!.accessToken;
    const noRetry = createDefiClient({ baseUrl, accessToken: token, maxRetries: 0 });
    await noRetry.GET('/api/v1/usage/stats'); // the one request of this window
    const limited = await noRetry.GET('/api/v1/usage/stats');
    expect(limited.response.status).toBe(429);
    expect(limited.error?.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(limited.error?.retryAfter).toBeGreaterThan(0);

    // The real server's window is 60 s: a first answer of 429 with retryAfter 1 stands in for it.
    const sent: number[] = [];
    const retrying = createDefiClient({
      baseUrl,
      fetch: async (request) => {
        sent.push(Date.now());
        if (sent.length === 1) {
          return Response.json(
            { ...limited.error, retryAfter: 1 },
            { status: 429, headers: { 'Retry-After': '1' } },
          );
        }
        return fetch(request);
      },
    });
    const live = await retrying.GET('/health/live');
    expect(live.data).toEqual({ status: 'ok' });
    expect(sent).toHaveLength(2);
    expect(sent[1] - sent[0]).toBeGreaterThanOrEqual(990);
  });
});
