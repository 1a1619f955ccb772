/**
 * RPC failover in the booted app (issue 29): CHAIN_RPC_URL lists two URLs, the first answering
 * HTTP 429 (a rate-limited provider, played by a local server: the edge we do not own) or refusing
 * connections. Builds and the attester's transaction go through the second, /health/ready names
 * it, and the provider key in the first URL appears in no response and no log line.
 */
import { createServer, Server } from 'node:http';
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { captureStdout } from '../helpers/capture-stdout';
import { postActivateDemo } from '../helpers/compliance';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';
import { postSwap } from '../helpers/defi';
import { closedPortUrl, listenOnEphemeralPort } from '../helpers/ports';

const KEY = 'SECRETKEY123';

/** A provider over its rate limit: every call answers 429 with a JSON-RPC error body. */
async function rateLimitedProvider() {
  let calls = 0;
  const server: Server = createServer((req, res) => {
    calls += 1;
    req.resume();
    req.on('end', () =>
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' })
        .end('{"jsonrpc":"2.0","id":1,"error":{"code":429,"message":"too many requests"}}'),
    );
  });
  const port = await listenOnEphemeralPort(server);
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('Chain RPC failover (e2e)', () => {
  let chain: DevnetHandle;
  let limited: Awaited<ReturnType<typeof rateLimitedProvider>>;

  beforeAll(async () => {
    chain = await acquireDevnet();
    limited = await rateLimitedProvider();
  }, 60_000);
  afterAll(async () => {
    await limited?.close();
    await chain?.release();
  });

  describe.each([
    ['answers HTTP 429', async () => limited.url, 4],
    ['refuses connections', () => closedPortUrl(), 5],
  ])('the first RPC URL %s', (_case, firstOrigin, walletIndex) => {
    let t: TestApp;
    let first: string;
    let token: string;
    let stdout: ReturnType<typeof captureStdout>;
    let closed = false;
    const seen: string[] = [];
    /** Every response body and header the test receives, to search for the key. */
    const record = (res: request.Response) => {
      seen.push(JSON.stringify(res.headers), res.text ?? '');
      return res;
    };

    // Every log line of the app, from its boot to its shutdown (which writes what pino buffered).
    beforeAll(async () => {
      first = await firstOrigin();
      stdout = captureStdout();
      t = await createTestApp({
        env: {
          ...chain.env,
          CHAIN_RPC_URL: `${first}/v2/${KEY}?apikey=${KEY},${chain.rpcUrl}`,
          LOG_LEVEL: 'debug',
          LOG_FORMAT: 'json',
        },
      });
      token = await login(t, await t.createAccount());
    }, 60_000);
    afterAll(async () => {
      if (!closed) await t?.close();
      stdout?.restore();
    });

    it('builds a quote and a swap through the second URL', async () => {
      const { WETH, tUSDC } = chain.deployment.tokens;
      const quote = record(
        await request(t.server)
          .post('/api/v1/defi/quote')
          .set('Authorization', `Bearer ${token}`)
          .send({ tokenIn: WETH, tokenOut: tUSDC, amount: (10n ** 18n).toString() }),
      );
      expect(quote.status).toBe(200);
      expect(BigInt(quote.body.amountOut)).toBeGreaterThan(0n);
      const callsBefore = limited.calls();

      // No session for this wallet: buildOnly builds anyway (the reads are the same).
      const body = {
        tokenIn: WETH,
        tokenOut: tUSDC,
        amount: (10n ** 16n).toString(),
        userAddress: chain.wallets[3].address,
      };
      const swap = record(await postSwap(t, token, body, '?buildOnly=true'));
      expect(swap.status).toBe(200);
      expect(swap.body.transaction.data).toMatch(/^0x[0-9a-f]+$/);
      // The first URL is cooling down: this build did not ask it again.
      expect(limited.calls()).toBe(callsBefore);
    });

    it("sends the attester's transaction through the second URL, then the swap builds", async () => {
      const wallet = chain.wallets[walletIndex].address;
      const activated = record(await postActivateDemo(t, token, wallet));
      expect(activated.status).toBe(200);
      expect(activated.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect((await chain.provider.getTransactionReceipt(activated.body.txHash))?.status).toBe(1);

      const { WETH, tUSDC } = chain.deployment.tokens;
      const amount = (10n ** 16n).toString();
      const body = { tokenIn: WETH, tokenOut: tUSDC, amount, userAddress: wallet };
      const swap = record(await postSwap(t, token, body));
      expect(swap.status === 200 ? 200 : swap.text).toBe(200);
      expect(swap.body.session.active).toBe(true);
    });

    it('/health/ready is up and names the second URL as in use, the first one failing', async () => {
      const ready = record(await request(t.server).get('/health/ready'));
      expect(ready.status).toBe(200);
      const rpc = ready.body.info.chain.rpc;
      expect(rpc).toMatchObject({
        inUse: new URL(chain.rpcUrl).origin,
        urlsConfigured: 2,
        windowSeconds: 60,
        urls: [
          { url: new URL(first).origin, inUse: false, errorRate: 1 },
          { url: new URL(chain.rpcUrl).origin, inUse: true, errors: 0 },
        ],
      });
      expect(rpc.urls[0].errors).toBeGreaterThanOrEqual(1);
      expect(rpc.urls[0].coolingDownForMs).toBeGreaterThan(0);
    });

    it('never shows the provider key in a response or a log line; logs the failover once', async () => {
      await t.close(); // writes what pino buffered
      closed = true;
      const logs = stdout.text();
      stdout.restore();
      expect(seen.length).toBeGreaterThanOrEqual(8);
      for (const text of seen) expect(text.includes(KEY) ? text : null).toBeNull();
      expect(logs).toMatch(/"msg"/); // the capture did see the log lines
      expect(logs.includes(KEY)).toBe(false);
      const failovers = logs
        .split('\n')
        .filter((line) => line.includes('"chain.rpc.failover"'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(failovers).toHaveLength(1);
      expect(failovers[0]).toMatchObject({
        level: 40,
        from: new URL(first).origin,
        to: new URL(chain.rpcUrl).origin,
        reason: first === limited.url ? 'HTTP 429' : 'ECONNREFUSED',
        cooldownMs: first === limited.url ? 30_000 : 5_000,
      });
    });
  });
});
