/**
 * `npm run bench:request-io` (issue 59): what one request makes the service send to its database
 * and to Redis, counted at the drivers inside the service process (bench/lib/io-counter.cjs):
 * SQL statements (PostgreSQL, or SQLite on the embedded stack) and Redis commands, by statement,
 * per request, for a swap build (buildOnly), a quote and a protected request that reads no chain
 * (GET /api/v1/defi/config).
 *
 * Each scenario twice: BENCH_SEQUENTIAL (200) requests one at a time, then BENCH_SECONDS (3) s at
 * BENCH_CONNECTIONS (16) connections (where the usage rows' batches fill up). What the service
 * sends on its own while idle (timers, scanners) is measured for BENCH_IDLE_SECONDS (5) s and
 * subtracted at its rate; it is printed apart.
 *
 * BENCH_STACKS=production,embedded (default production; production needs TEST_DATABASE_URL and
 * TEST_REDIS_URL), BENCH_ONLY=swap|quote|config|liquidity|swapTwoHop, BENCH_OTHER_TREE /
 * BENCH_OTHER_NODE: other checkouts (a worktree of an older commit, built) counted the same way.
 */
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/bench-stack';
import type { Scenario } from './lib/load';
import {
  checkouts,
  SCENARIO_NAMES,
  ScenarioName,
  Stack,
  startChain,
  startServiceTree,
  stopChain,
} from './lib/service-tree';

const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
const STACKS = (process.env.BENCH_STACKS ?? 'production').split(',') as Stack[];
const ONLY = (process.env.BENCH_ONLY ?? 'swap|quote|config').split('|');
/** Long enough for the usage recorder's 250 ms flush to write the last rows. */
const SETTLE_MS = 700;

interface IoCounts {
  roundTrips: { pg: number; redis: number; sqlite: number };
  statements: Record<string, number>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function counter(file: string) {
  for (let i = 0; !existsSync(file); i += 1) {
    if (i > 100) throw new Error('the io counter did not start (bench/lib/io-counter.cjs)');
    await sleep(50);
  }
  const url = `http://127.0.0.1:${readFileSync(file, 'utf8')}/io`;
  return {
    reset: () => fetch(`${url}/reset`, { method: 'POST' }).then((r) => r.text()),
    read: async () => (await (await fetch(url)).json()) as IoCounts,
  };
}

async function sequential(port: number, s: Scenario, n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    const res = await fetch(`http://127.0.0.1:${port}${s.path}`, {
      method: s.method,
      headers: { 'content-type': 'application/json', ...s.headers },
      body: s.body === undefined ? undefined : JSON.stringify(s.body),
    });
    await res.arrayBuffer();
    if (res.status !== s.expectStatus) throw new Error(`${s.name}: ${res.status}`);
  }
}

async function loaded(port: number, s: Scenario): Promise<number> {
  let unexpected = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${s.path}`,
    method: s.method,
    headers: { 'content-type': 'application/json', ...s.headers },
    body: s.body === undefined ? undefined : JSON.stringify(s.body),
    connections: CONNECTIONS,
    duration: SECONDS,
    setupClient: (client) =>
      client.on('response', (status: number) => {
        if (status !== s.expectStatus) unexpected += 1;
      }),
  });
  if (unexpected + result.errors + result.timeouts > 0)
    throw new Error(`${s.name}: ${unexpected} unexpected answers under load`);
  return result.requests.total;
}

/** Per request: each statement's count over the window, less what idling sends in as long. */
function perRequest(
  counts: IoCounts,
  requests: number,
  seconds: number,
  idlePerSecond: Map<string, number>,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [statement, n] of Object.entries(counts.statements)) {
    const own = n - (idlePerSecond.get(statement) ?? 0) * seconds;
    if (own > 0) out.set(statement, own / requests);
  }
  return out;
}

const total = (m: Map<string, number>, kind: string) =>
  [...m].filter(([k]) => k.startsWith(`${kind} `)).reduce((sum, [, v]) => sum + v, 0);

async function main(): Promise<void> {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const lines: string[] = [];
  const summary: string[] = [
    '| tree | stack | scenario | SQL per request (sequential) | SQL per request (loaded) | Redis commands per request (sequential) | Redis commands per request (loaded) |',
    '|---|---|---|---|---|---|---|',
  ];
  const tmp = mkdtempSync(join(tmpdir(), 'cgk-bench-io-'));
  try {
    for (const checkout of checkouts(true)) {
      const chain = await startChain(checkout);
      try {
        for (const stack of STACKS) {
          const file = join(tmp, `${checkout.label.replace(/\W+/g, '-')}-${stack}.port`);
          const t = await startServiceTree(checkout, stack, chain, {
            nodeArgs: ['-r', join(ROOT, 'bench/lib/io-counter.cjs')],
            env: { BENCH_IO_COUNT_FILE: file },
          });
          try {
            const io = await counter(file);
            await sleep(SETTLE_MS);
            await io.reset();
            await sleep(IDLE_SECONDS * 1000);
            const idle = await io.read();
            const idlePerSecond = new Map(
              Object.entries(idle.statements).map(([k, n]) => [k, n / IDLE_SECONDS]),
            );
            lines.push(
              `\n### ${checkout.label}, ${stack}: idle, per second (subtracted below)\n`,
              ...[...idlePerSecond].map(([k, v]) => `- ${v.toFixed(2)}  ${k}`),
            );
            const sql = stack === 'production' ? 'pg' : 'sqlite';
            for (const name of SCENARIO_NAMES.filter((n) => ONLY.includes(n))) {
              const s = t.scenarios[name as ScenarioName];
              if (!s) continue;
              const cells: string[] = [];
              const rows: Map<string, number>[] = [];
              for (const mode of ['sequential', 'loaded'] as const) {
                await sleep(SETTLE_MS);
                await io.reset();
                const started = Date.now();
                const n =
                  mode === 'sequential'
                    ? (await sequential(t.server.port, s, SEQUENTIAL), SEQUENTIAL)
                    : await loaded(t.server.port, s);
                await sleep(SETTLE_MS);
                const counts = await io.read();
                const per = perRequest(counts, n, (Date.now() - started) / 1000, idlePerSecond);
                rows.push(per);
                cells.push(`${mode} (${n} requests)`);
              }
              const f = (v: number) => v.toFixed(3);
              summary.push(
                `| ${checkout.label} | ${stack} | ${name} | ${f(total(rows[0], sql))} | ${f(total(rows[1], sql))} | ${f(total(rows[0], 'redis'))} | ${f(total(rows[1], 'redis'))} |`,
              );
              const statements = [...new Set([...rows[0].keys(), ...rows[1].keys()])].sort();
              lines.push(
                `\n### ${checkout.label}, ${stack}, ${name}: per request (${cells.join(', ')})\n`,
                '| sequential | loaded | statement |',
                '|---|---|---|',
                ...statements.map(
                  (k) =>
                    `| ${f(rows[0].get(k) ?? 0)} | ${f(rows[1].get(k) ?? 0)} | \`${k.replace(/\|/g, '\\|')}\` |`,
                ),
              );
            }
          } finally {
            await t.stop();
          }
        }
      } finally {
        await stopChain(chain);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  process.stdout.write(
    `\nload average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )}; ${SEQUENTIAL} sequential requests, then ${SECONDS} s at ${CONNECTIONS} connections\n\n` +
      `${summary.join('\n')}\n${lines.join('\n')}\n`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
