/**
 * Issue 43 item 1: GET /metrics on its own loopback listener, and each paging signal moving when
 * its cause is injected into real dependencies: the chain paused (no blocks), the attester
 * drained, a webhook receiver failing, Redis gone (behind a TCP proxy, never the shared server),
 * an RPC URL refusing connections.
 */
import request from 'supertest';
import { ApiError } from '../../src/common/errors/api-error';
import { AttesterService } from '../../src/compliance/sessions/attester.service';
import { MetricsServer } from '../../src/metrics/metrics-server';
import { SCOPES } from '../../src/auth/scopes';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login, uniqueRedisPrefix } from '../helpers/auth';
import { captureStdout } from '../helpers/capture-stdout';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';
import { devnetRpc } from '../helpers/devnet-mining';
import { closedPortUrl } from '../helpers/ports';
import { TcpProxy } from '../helpers/tcp-proxy';
import { parseMetrics as parse, Samples } from '../helpers/metrics';
import { pollUntil } from '../helpers/wait';
import { WebhookReceiver } from '../webhooks/receiver';

const REDIS_URL = process.env.TEST_REDIS_URL;
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('Metrics (GET /metrics on METRICS_PORT)', () => {
  let chain: DevnetHandle;
  let redisProxy: TcpProxy | undefined;
  let receiver: WebhookReceiver;
  let deadRpc: string;
  let t: TestApp;
  let metricsUrl: string;
  let stdout: ReturnType<typeof captureStdout>;

  beforeAll(async () => {
    chain = await acquireDevnet();
    receiver = await WebhookReceiver.start();
    deadRpc = await closedPortUrl();
    if (REDIS_URL) {
      const target = new URL(REDIS_URL);
      redisProxy = await new TcpProxy(Number(target.port || 6379), target.hostname).up();
    }
    stdout = captureStdout();
    t = await createTestApp({
      env: {
        ...chain.env,
        // The dead URL first: every call fails over to the devnet and counts an error for it.
        CHAIN_RPC_URL: `${deadRpc},${chain.rpcUrl}`,
        CHAIN_RPC_BACKOFF_MS: '1',
        CHAIN_RPC_BACKOFF_MAX_MS: '1',
        METRICS_PORT: '0',
        ATTESTER_BALANCE_CHECK_MS: '100',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        WEBHOOK_RETRY_SCHEDULE: '200ms,1h',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        ...(redisProxy && {
          REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
          REDIS_KEY_PREFIX: uniqueRedisPrefix('metrics'),
          REDIS_COMMAND_TIMEOUT_MS: '200',
        }),
      },
    });
    const address = t.app.get(MetricsServer).address!;
    expect(address.host).toBe('127.0.0.1');
    metricsUrl = `http://127.0.0.1:${address.port}/metrics`;
  }, 120_000);
  afterAll(async () => {
    stdout?.restore();
    await t?.close();
    await receiver?.close();
    await redisProxy?.down();
    await chain?.release();
  });

  const scrape = async (): Promise<Samples> => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parse(await res.text());
  };
  const metric = async (series: string): Promise<number | undefined> =>
    (await scrape()).get(series);

  it('is served on its own listener only: the API port answers 404', async () => {
    await request(t.server).get('/metrics').expect(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('counts requests by route pattern, method, status and auth method, with a latency histogram', async () => {
    const key = (await createApiKey(t, await login(t, await t.createAccount()), [...SCOPES])).key;
    await request(t.server).get(`/api/v1/defi/preflight/${WALLET}`).set('X-API-Key', key);
    await request(t.server).get('/api/v1/usage/stats').set('X-API-Key', 'nope').expect(401);
    const samples = await scrape();
    const preflight = [...samples.keys()].find(
      (k) =>
        k.startsWith('cgk_http_requests_total{') &&
        k.includes('route="/api/v1/defi/preflight/:address"') &&
        k.includes('auth_method="api_key"'),
    );
    expect(preflight).toBeDefined();
    expect(
      samples.get(
        'cgk_http_requests_total{route="/api/v1/usage/stats",method="GET",status="401",auth_method="none"}',
      ),
    ).toBe(1);
    expect(
      samples.get(
        'cgk_http_request_duration_seconds_count{route="/api/v1/usage/stats",method="GET",status="401"}',
      ),
    ).toBe(1);
    expect(samples.get('cgk_http_in_flight_requests')).toBe(0);
  });

  it('counts RPC errors per URL: the refusing URL grows, the devnet stays at 0', async () => {
    const dead = `cgk_rpc_errors_total{url="${new URL(deadRpc).origin}"}`;
    const live = `cgk_rpc_errors_total{url="${new URL(chain.rpcUrl).origin}"}`;
    const before = (await metric(dead)) ?? 0;
    await pollUntil(
      'an error counted for the refusing URL',
      () => metric(dead),
      (n) => (n ?? 0) > before,
    );
    expect(await metric(live)).toBe(0);
  });

  it('grows the chain head age while no block is mined, and drops it when one is', async () => {
    await devnetRpc(chain.rpcUrl, 'evm_mine');
    const fresh = (await metric('cgk_chain_head_age_seconds'))!;
    expect(fresh).toBeLessThan(5);
    const paused = await pollUntil(
      'the head age to grow past 2 s',
      () => metric('cgk_chain_head_age_seconds'),
      (age) => (age ?? 0) >= fresh + 2,
      { timeoutMs: 10_000, intervalMs: 250 },
    );
    await devnetRpc(chain.rpcUrl, 'evm_mine');
    expect(await metric('cgk_chain_head_age_seconds')).toBeLessThan(paused!);
  });

  it('drained attester: the balance metric reads 0, the low-balance gauge 1, and a warning is logged', async () => {
    const attester = chain.wallets[0].address;
    expect(await metric('cgk_attester_low_balance')).toBe(0);
    expect((await metric('cgk_attester_balance_wei'))!).toBeGreaterThan(0);
    await devnetRpc(chain.rpcUrl, 'hardhat_setBalance', [attester, '0x0']);
    await pollUntil(
      'the balance metric at 0',
      () => metric('cgk_attester_balance_wei'),
      (v) => v === 0,
    );
    expect(await metric('cgk_attester_low_balance')).toBe(1);
    expect(await metric('cgk_attester_pending_transactions')).toBe(0);
    const warning = await pollUntil(
      'the attester.balance.low line',
      () =>
        stdout
          .text()
          .split('\n')
          .filter((line) => line.includes('attester.balance.low'))
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      (lines) => lines.length > 0,
    );
    expect(warning[0]).toMatchObject({ level: 40, address: attester, balanceEth: '0.0' });
    // An activation now fails naming the cause, for the caller (hint) and in the envelope.
    const until = (await chain.chainTime()) + 3_600;
    const failure = await t.app
      .get(AttesterService)
      .activate(WALLET, until)
      .catch((error: unknown) => error as ApiError);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      code: 'BROADCAST_FAILED',
      options: { extra: { reason: 'insufficient_funds' } },
    });
    expect((failure as ApiError).hint).toMatch(/attester fund/);
  });

  it('webhook receiver failing: queue depth and the oldest due age grow', async () => {
    expect(await metric('cgk_webhook_queue_depth')).toBe(0);
    expect(await metric('cgk_webhook_oldest_due_age_seconds')).toBe(0);
    receiver.respondWith(...new Array<number>(5).fill(503));
    const token = await login(t, await t.createAccount());
    const auth = { Authorization: `Bearer ${token}` };
    const created = await request(t.server)
      .post('/api/v1/webhooks')
      .set(auth)
      .send({ url: receiver.url, events: ['session.activated'] })
      .expect(201);
    await request(t.server).post(`/api/v1/webhooks/${created.body.id}/test`).set(auth).expect(202);
    await receiver.waitFor(() => true, 2); // the first attempt and its retry both failed
    expect(await metric('cgk_webhook_queue_depth')).toBe(1);
    const age = (await metric('cgk_webhook_oldest_due_age_seconds'))!;
    expect(age).toBeGreaterThan(0);
    await pollUntil(
      'the oldest due age to grow',
      () => metric('cgk_webhook_oldest_due_age_seconds'),
      (later) => (later ?? 0) > age,
    );
  });

  (REDIS_URL ? it : it.skip)(
    'Redis gone: the fail-open gauge goes to 1 for both stores, back to 0 after',
    async () => {
      const series = (store: string) => `cgk_redis_fail_open{store="${store}"}`;
      expect(await metric(series('rate_limit'))).toBe(0);
      expect(await metric(series('quota'))).toBe(0);
      await redisProxy!.down();
      await pollUntil(
        'fail-open reported',
        () => scrape(),
        (s) => s.get(series('rate_limit')) === 1 && s.get(series('quota')) === 1,
      );
      await redisProxy!.up();
      // The stores go back to Redis on their next answer from it: one authenticated request.
      const key = (await createApiKey(t, await login(t, await t.createAccount()), [...SCOPES])).key;
      await pollUntil(
        'fail-open cleared',
        async () => {
          await request(t.server).get('/api/v1/usage/stats').set('X-API-Key', key);
          return scrape();
        },
        (s) => s.get(series('rate_limit')) === 0 && s.get(series('quota')) === 0,
        { timeoutMs: 10_000, intervalMs: 200 },
      );
    },
  );
});
