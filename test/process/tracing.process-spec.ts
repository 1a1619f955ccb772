/**
 * Issue 43 item 2: with OTEL_TRACES_EXPORTER=otlp a request carrying a W3C traceparent is traced
 * under the caller's trace id, with spans for HTTP, the database (pg) and the JSON-RPC call to the
 * chain (undici), exported over OTLP/HTTP to an in-process collector; its log line names the
 * trace. Runs the built service (the SDK must load before the modules it patches) on PostgreSQL.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { BuiltAppProcess, ensureDistBuilt, startBuiltApp } from '../helpers/built-app-process';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';
import { pollUntil } from '../helpers/wait';

const ROOT = join(__dirname, '..', '..');
const describePostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

/** An OTLP/HTTP JSON receiver: POST /v1/traces, every span kept. */
class Collector {
  readonly spans: OtlpSpan[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          const parsed = JSON.parse(body) as {
            resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
          };
          for (const resource of parsed.resourceSpans)
            for (const scope of resource.scopeSpans) this.spans.push(...scope.spans);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server!.close(() => resolve()));
  }
}

const attribute = (span: OtlpSpan, key: string) =>
  span.attributes.find((a) => a.key === key)?.value.stringValue;

/** How many @opentelemetry modules a process has loaded once main.ts's first import ran. */
function otelModulesAfterPreload(env: Record<string, string>): number {
  const probe = `require('./dist/bootstrap/tracing-preload.js'); process.stdout.write(String(Object.keys(require.cache).filter((k) => k.includes('@opentelemetry')).length)); process.exit(0);`;
  const run = spawnSync(process.execPath, ['-e', probe], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return Number(run.stdout);
}

describe('Tracing off', () => {
  beforeAll(() => ensureDistBuilt());

  it.each([
    ['no OTEL_* variable', {}],
    ['OTEL_TRACES_EXPORTER=none', { OTEL_TRACES_EXPORTER: 'none' }],
    ['OTEL_SDK_DISABLED=true', { OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }],
  ])('with %s the SDK is not even loaded', (_, env) => {
    expect(otelModulesAfterPreload(env)).toBe(0);
  });

  it('with OTEL_TRACES_EXPORTER=otlp it is (the control)', () => {
    expect(otelModulesAfterPreload({ OTEL_TRACES_EXPORTER: 'otlp' })).toBeGreaterThan(100);
  });
});

describePostgres('Tracing (OTEL_TRACES_EXPORTER=otlp)', () => {
  let collector: Collector;
  let db: TestDatabase;
  let running: BuiltAppProcess | undefined;

  beforeAll(async () => {
    ensureDistBuilt();
    collector = new Collector();
    db = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await running?.stop();
    await collector?.close();
    await db?.drop();
  });

  it('a request with a traceparent: HTTP, pg and JSON-RPC spans in its trace, and the trace id on its log line', async () => {
    const endpoint = await collector.start();
    running = await startBuiltApp({
      ...db.env,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      SEED_DEMO_ACCOUNT: 'false',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    const base = `http://127.0.0.1:${running.port}`;
    const email = `traced-${Date.now()}@example.com`;
    const password = 'correct horse battery staple';
    execFileSync(
      process.execPath,
      [
        'dist/cli/main.js',
        'create-account',
        '--name',
        'Traced',
        '--email',
        email,
        '--password',
        password,
      ],
      { cwd: ROOT, env: { ...process.env, ...db.env } },
    );
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };

    const traceId = randomBytes(16).toString('hex');
    const parentSpanId = randomBytes(8).toString('hex');
    const res = await fetch(`${base}/api/v1/defi/preflight/${WALLET}`, {
      headers: {
        authorization: `Bearer ${accessToken}`,
        traceparent: `00-${traceId}-${parentSpanId}-01`,
      },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');

    const spans = await pollUntil(
      'the request, database and JSON-RPC spans',
      () => collector.spans.filter((span) => span.traceId === traceId),
      (found) =>
        found.some((s) => s.kind === 2) &&
        found.some((s) => s.name.startsWith('pg.')) &&
        found.some((s) => s.kind === 3 && s.name.startsWith('POST')),
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    const server = spans.find((s) => s.kind === 2)!;
    expect(server.parentSpanId).toBe(parentSpanId); // the caller's traceparent was honoured
    expect(spans.find((s) => s.name.startsWith('pg.'))).toBeDefined();
    const rpc = spans.find((s) => s.kind === 3 && s.name.startsWith('POST'))!;
    expect(attribute(rpc, 'url.full') ?? attribute(rpc, 'server.address')).toMatch(/127\.0\.0\.1/);

    const lines = await pollUntil(
      'the request log line',
      () =>
        running!
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => (line.req as { id?: string } | undefined)?.id === requestId),
      (found) => found.length === 1,
      { timeoutMs: 5_000, intervalMs: 100 },
    );
    expect(lines[0].traceId).toBe(traceId);
  }, 120_000);

  /** Root spans no request started (no parent, not an incoming HTTP server span). */
  const backgroundRoots = () =>
    collector.spans.filter((span) => !span.parentSpanId && span.kind !== 2);

  it('background timers make no trace of their own (issue 58), unless TRACING_BACKGROUND=true', async () => {
    await running?.stop();
    const busyTimers = {
      ...db.env,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      METRICS_PORT: '0',
      SEED_DEMO_ACCOUNT: 'false',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: await collector.start(),
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // Timers that query the database and the chain several times a second.
      WEBHOOK_POLL_INTERVAL_MS: '200',
      ATTESTER_BALANCE_CHECK_MS: '300',
      SCREENING_INTERVAL_MS: '300',
    };
    running = await startBuiltApp(busyTimers);
    // A request's spans still arrive (the exporter works), the timers' do not.
    const traceId = randomBytes(16).toString('hex');
    await fetch(`http://127.0.0.1:${running.port}/api/v1/defi/config`, {
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    await pollUntil(
      'the request span exported',
      () => collector.spans.some((span) => span.traceId === traceId),
      Boolean,
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    // The timers have run since: two more screening passes (each reads the database).
    const metrics = JSON.parse(
      running
        .output()
        .split('\n')
        .find((line) => line.includes('"metrics.listening"'))!,
    ) as { port: number };
    const lastScreening = async () => {
      const text = await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
      return Number(/^cgk_screening_last_success_timestamp_seconds (\S+)$/m.exec(text)?.[1] ?? 0);
    };
    const first = await pollUntil('a screening pass', lastScreening, (t) => t > 0, {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    await pollUntil('two more screening passes', lastScreening, (t) => t >= first + 0.5, {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    expect(backgroundRoots()).toEqual([]);
    await running.stop();

    // The control: asked for, the same timers are traced.
    running = await startBuiltApp({ ...busyTimers, TRACING_BACKGROUND: 'true' });
    const roots = await pollUntil(
      'background spans',
      () => backgroundRoots(),
      (found) => found.length >= 5,
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect(roots.some((span) => span.name.startsWith('pg.'))).toBe(true);
  }, 120_000);
});
