/**
 * `npm run bench:tracing` (issue 43): what tracing costs. The same built service twice at once on
 * one devnet and SQLite file: tracing off (OTEL_* unset: the SDK is never loaded, which the start
 * proves by counting loaded @opentelemetry modules) and on (OTEL_TRACES_EXPORTER=otlp, every span
 * sent over OTLP/HTTP protobuf to a sink in this process). Scenario: GET /api/v1/defi/config with
 * an API key (the HTTP, Express and database path; no chain call). Rounds of back-to-back
 * saturating runs, the order turning each round; CPU per request of each side pooled.
 * BENCH_ROUNDS (4), BENCH_SECONDS (3), BENCH_CONNECTIONS (16).
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../src/bootstrap/process-settings';
import { ROOT, startBenchStack } from './lib/bench-stack';
import { jsonApi } from './lib/json-api';
import { run, Run, Scenario, untilQuiet } from './lib/load';
import { RunningServer, spawnServer } from './lib/spawn-server';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

/** Reports how many @opentelemetry modules the service loaded, at its start (then exits). */
const COUNT_OTEL_MODULES = `process.on('exit', () => process._rawDebug('OTEL_MODULES ' + Object.keys(require.cache).filter((k) => k.includes('@opentelemetry')).length));`;

/** What a process that loads the tracing preload (as dist/main.js does first) reports on stderr. */
function otelModulesLoaded(env: NodeJS.ProcessEnv): string {
  return spawnSync(
    process.execPath,
    [
      '-e',
      `${COUNT_OTEL_MODULES} require('./dist/bootstrap/tracing-preload.js'); process.exit(0);`,
    ],
    { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 30_000 },
  ).stderr;
}

async function otlpSink(): Promise<{ url: string; spans: () => number; close: () => void }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => bytes,
    close: () => server.close(),
  };
}

async function main(): Promise<void> {
  const stack = await startBenchStack('warn');
  const sink = await otlpSink();
  const started: RunningServer[] = [];
  try {
    const start = async (name: string, env: NodeJS.ProcessEnv) => {
      const server = await spawnServer(
        process.execPath,
        [...SERVICE_NODE_FLAGS, 'dist/main.js'],
        { ...stack.env, ...SERVICE_PROCESS_ENV, ...env },
        /Ready on http:\/\/127\.0\.0\.1:(\d+)/,
        ROOT,
      );
      started.push(server);
      return { name, server };
    };
    const off = await start('tracing off', {});
    const on = await start('tracing on (otlp)', {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    });
    const { accessToken } = await jsonApi(off.server.port, 'POST', '/auth/login', {
      email: stack.email,
      password: stack.password,
    });
    const { key } = await jsonApi(
      off.server.port,
      'POST',
      '/api/v1/api-keys',
      { name: 'bench', scopes: ['defi:swap'] },
      { Authorization: `Bearer ${accessToken}` },
    );
    const scenario: Scenario = {
      name: 'GET /api/v1/defi/config (API key)',
      method: 'GET',
      path: '/api/v1/defi/config',
      headers: { 'X-API-Key': key },
      expectStatus: 200,
    };
    const sides = [off, on];
    for (const side of sides)
      await run(side.server.port, side.server.pid, scenario, {
        connections: CONNECTIONS,
        seconds: 1,
      });
    const runs = new Map<string, Run[]>(sides.map((s) => [s.name, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const side of sides.map((_, i) => sides[(i + round) % sides.length])) {
        await Promise.all(sides.map((s) => untilQuiet(s.server.pid)));
        runs.get(side.name)!.push(
          await run(side.server.port, side.server.pid, scenario, {
            connections: CONNECTIONS,
            seconds: SECONDS,
          }),
        );
      }
    }
    const pooled = (list: Run[]) =>
      list.reduce((sum, r) => sum + r.cpuMsPerReq * r.requests, 0) /
      Math.max(
        1,
        list.reduce((sum, r) => sum + r.requests, 0),
      );
    const cpu = (side: (typeof sides)[number]) => pooled(runs.get(side.name)!);
    const rps = (side: (typeof sides)[number]) =>
      runs.get(side.name)!.reduce((sum, r) => sum + r.reqPerSec, 0) / ROUNDS;
    const p99 = (side: (typeof sides)[number]) =>
      Math.max(...runs.get(side.name)!.map((r) => r.p99));

    // Modules loaded with tracing off and on, counted by a start of each that exits at once.
    const modules = (env: NodeJS.ProcessEnv): number =>
      Number(/OTEL_MODULES (\d+)/.exec(otelModulesLoaded(env))?.[1] ?? NaN);
    const lines = [
      `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s`,
      '',
      '| side | req/s (mean) | worst p99 ms | CPU ms/req (pooled) | vs off | @opentelemetry modules loaded |',
      '|---|---|---|---|---|---|',
      `| ${off.name} | ${rps(off).toFixed(0)} | ${p99(off)} | ${cpu(off).toFixed(3)} | 1.00 | ${modules({})} |`,
      `| ${on.name} | ${rps(on).toFixed(0)} | ${p99(on)} | ${cpu(on).toFixed(3)} | ${(cpu(on) / cpu(off)).toFixed(2)} | ${modules({ OTEL_TRACES_EXPORTER: 'otlp' })} |`,
      '',
      `OTLP bytes received by the sink: ${sink.spans()}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const server of started.reverse()) await server.stop();
    sink.close();
    await stack.stop();
  }
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
