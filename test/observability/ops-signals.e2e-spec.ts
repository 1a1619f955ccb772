/**
 * Issue 58 item 4, the signals an SRE expects: /health/ready answers only its status on the API
 * port by default (no address, balance or host) while the metrics listener keeps the details; the
 * runtime's standard process and Node.js metrics and (PostgreSQL) the database pool's use; each
 * failed webhook attempt is a warn line naming the endpoint, the status and the next attempt; the
 * shutdown ends with one line saying what was drained.
 */
import request from 'supertest';
import { Metrics } from '../../src/metrics/metrics.service';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { captureStdout } from '../helpers/capture-stdout';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';
import { metricsListener } from '../helpers/metrics';
import { testEngine } from '../helpers/test-env';
import { pollUntil } from '../helpers/wait';
import { WebhookReceiver } from '../webhooks/receiver';

type Line = Record<string, unknown>;

describe('Operations signals (HEALTH_DETAILS off, the default)', () => {
  let chain: DevnetHandle;
  let t: TestApp;
  let receiver: WebhookReceiver;
  let stdout: ReturnType<typeof captureStdout>;

  beforeAll(async () => {
    chain = await acquireDevnet();
    receiver = await WebhookReceiver.start();
    stdout = captureStdout();
    t = await createTestApp({
      env: {
        ...chain.env,
        HEALTH_DETAILS: undefined,
        METRICS_PORT: '0',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        WEBHOOK_RETRY_SCHEDULE: '100ms,1h',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
      },
    });
  }, 120_000);
  afterAll(async () => {
    stdout?.restore();
    await t?.close();
    await receiver?.close();
    await chain?.release();
  });

  const lines = (event: string): Line[] =>
    stdout
      .text()
      .split('\n')
      .filter((line) => line.includes(`"event":"${event}"`))
      .map((line) => JSON.parse(line) as Line);

  it('/health/ready on the API port says only its status; the metrics listener has every detail', async () => {
    const ready = await request(t.server).get('/health/ready').expect(200);
    expect(ready.body).toEqual({ status: 'ok' });
    const attester = chain.wallets[0].address;
    const detailed = await metricsListener(t).readiness();
    expect(detailed.status).toBe(200);
    expect(detailed.body.details.attester).toMatchObject({
      status: 'up',
      address: attester,
      balanceEth: expect.any(String),
    });
    expect(detailed.body.details.chain.rpc.inUse).toBe(new URL(chain.rpcUrl).origin);
    // None of it leaks on the API port.
    expect(JSON.stringify(ready.body)).not.toMatch(
      new RegExp(`${attester}|balance|127\\.0\\.0\\.1`, 'i'),
    );
  });

  it("exports the runtime's standard metrics, and the database pool's use on PostgreSQL", async () => {
    const samples = await metricsListener(t).scrape();
    for (const series of [
      'process_resident_memory_bytes',
      'process_start_time_seconds',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_active_handles_total',
    ])
      expect({ series, value: samples.get(series) }).toEqual({ series, value: expect.any(Number) });
    // GC pauses: a histogram by kind, with samples once a collection was observed.
    expect(await t.app.get(Metrics).names()).toContain('nodejs_gc_duration_seconds');
    if (testEngine() === 'postgres') {
      expect(samples.get('cgk_database_pool_max')).toBe(10);
      expect(samples.get('cgk_database_pool_connections{state="idle"}')).toEqual(
        expect.any(Number),
      );
      expect(samples.get('cgk_database_pool_connections{state="in_use"}')).toEqual(
        expect.any(Number),
      );
      expect(samples.get('cgk_database_pool_waiting')).toBe(0);
    } else {
      // SQLite has no pool: no connection series, and a pool size of 0.
      expect(samples.has('cgk_database_pool_connections{state="idle"}')).toBe(false);
      expect(samples.get('cgk_database_pool_max')).toBe(0);
    }
  });

  it('logs each failed webhook attempt at warn: endpoint, status, next attempt (and counts it)', async () => {
    receiver.respondWith(503, 503);
    const token = await login(t, await t.createAccount());
    const auth = { Authorization: `Bearer ${token}` };
    const endpoint = await request(t.server)
      .post('/api/v1/webhooks')
      .set(auth)
      .send({ url: receiver.url, events: ['session.activated'] })
      .expect(201);
    await request(t.server).post(`/api/v1/webhooks/${endpoint.body.id}/test`).set(auth).expect(202);
    const failed = await pollUntil(
      'two webhook.attempt.failed lines',
      () => lines('webhook.attempt.failed'),
      (found) => found.length >= 2,
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    expect(failed[0]).toMatchObject({
      level: 40,
      endpointId: endpoint.body.id,
      attempt: 1,
      status: 503,
      error: 'HTTP 503',
      nextAttemptAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(failed[1]).toMatchObject({ attempt: 2, status: 503 });
    // The schedule (100ms, 1h) leaves a third attempt an hour later (+-20 % jitter: 48 min at least).
    expect(Date.parse(failed[1].nextAttemptAt as string) - Date.now()).toBeGreaterThan(45 * 60_000);
    expect(failed[0].msg).toMatch(
      new RegExp(
        `^webhook delivery \\S+ to endpoint ${endpoint.body.id} failed \\(attempt 1: 503\\); next attempt at `,
      ),
    );
    expect(
      await metricsListener(t).metric('cgk_webhook_attempts_total{result="failed"}'),
    ).toBeGreaterThanOrEqual(2);
  });

  it('ends its shutdown with one line saying what was drained', async () => {
    await t.close();
    const [stopped] = lines('service.stopped');
    expect(stopped).toMatchObject({
      level: 30,
      requests: { inFlight: 0, drained: true },
      webhookDeliveries: 0,
      usageRows: { flushed: expect.any(Number), lost: 0 },
      revocationsOwed: 0,
      shutdownMs: expect.any(Number),
    });
    expect(stopped.msg).toMatch(
      /^shut down in \d+ ms: no request in flight; .*webhook delivery attempt\(s\) in flight finished.*usage row\(s\) written.*0 session revocation\(s\) still owed/,
    );
  });
});
