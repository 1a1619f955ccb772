/**
 * `npm run bench:production-path` (issue 34): the service's CPU per swap build on PostgreSQL +
 * Redis against the same build on SQLite + memory, both against the bare NestJS hello, in one run.
 * Both services run at once (built, `npm start`'s settings, LOG_LEVEL=info), each on its own
 * database, behind one caching JSON-RPC proxy (bench/rpc-cache-proxy.ts: the EVM excluded, as in
 * `npm run bench`'s service-only mode). Rounds of three back-to-back saturating runs (bare,
 * SQLite, PostgreSQL + Redis, the order turning each round), each once every server is idle, so all three see the same phase
 * of this VM's drifting speed; the CPU per request of each side is pooled over the rounds.
 * CPU is the service process's own (/proc/<pid>/stat): PostgreSQL's and Redis's servers are
 * other processes. Needs BENCH_DATABASE_URL (or TEST_DATABASE_URL) and BENCH_REDIS_URL (or
 * TEST_REDIS_URL). BENCH_ROUNDS (5), BENCH_SECONDS (3), BENCH_CONNECTIONS (32), BENCH_PROFILE=<dir>
 * (V8 CPU profiles of both services, summarised by bench/profile-summary.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { cpus } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../src/bootstrap/process-settings';
import { createBenchAccount, ROOT, startBenchStack } from './lib/bench-stack';
import { run, Run, Scenario, untilQuiet } from './lib/load';
import { spawnServer, RunningServer } from './lib/spawn-server';
import { jsonApi } from './lib/json-api';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;

async function withPg<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: pgUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A service process on `env` and the swap buildOnly scenario with an API key of its own. */
async function startService(
  name: string,
  env: NodeJS.ProcessEnv,
  email: string,
  password: string,
): Promise<{ name: string; server: RunningServer; scenario: Scenario }> {
  const profile = process.env.BENCH_PROFILE
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${process.env.BENCH_PROFILE}`,
        `--cpu-prof-name=${name}.cpuprofile`,
      ]
    : [];
  const server = await spawnServer(
    process.execPath,
    [...SERVICE_NODE_FLAGS, ...profile, 'dist/main.js'],
    { ...env, ...SERVICE_PROCESS_ENV },
    /Ready on http:\/\/127\.0\.0\.1:(\d+)/,
    ROOT,
  );
  const { accessToken } = await jsonApi(server.port, 'POST', '/auth/login', { email, password });
  const { key } = await jsonApi(
    server.port,
    'POST',
    '/api/v1/api-keys',
    { name: 'bench', scopes: ['defi:swap', 'defi:preflight'] },
    { Authorization: `Bearer ${accessToken}` },
  );
  const headers = { 'X-API-Key': key };
  const config = await jsonApi(server.port, 'GET', '/api/v1/defi/config', undefined, headers);
  const token = (symbol: string): string =>
    config.tokens.find((t: { symbol: string }) => t.symbol === symbol).address;
  return {
    name,
    server,
    scenario: {
      name: `swap build, buildOnly (${name})`,
      method: 'POST',
      path: '/api/v1/defi/swap?buildOnly=true',
      headers,
      body: {
        tokenIn: token('WETH'),
        tokenOut: token('tUSDC'),
        amount: '1000000000000000',
        // A development-mnemonic wallet without a session (bench/run.ts's buildOnly wallet).
        userAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      },
      expectStatus: 200,
    },
  };
}

async function main(): Promise<void> {
  if (!pgUrl || !redisUrl)
    throw new Error(
      'Set BENCH_DATABASE_URL and BENCH_REDIS_URL (or TEST_DATABASE_URL and TEST_REDIS_URL)',
    );
  const stack = await startBenchStack();
  const schema = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await withPg((c) => c.query(`CREATE SCHEMA "${schema}"`));
  const started: RunningServer[] = [];
  try {
    const proxy = await spawnServer(
      process.execPath,
      ['-r', 'ts-node/register', 'bench/rpc-cache-proxy.ts', stack.devnet.rpcUrl],
      { ...process.env, TS_NODE_SWC: 'true' },
      /READY (\d+)/,
      ROOT,
    );
    started.push(proxy);
    const rpc = { CHAIN_RPC_URL: `http://127.0.0.1:${proxy.port}` };
    const pgEnv: NodeJS.ProcessEnv = {
      ...stack.env,
      ...rpc,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'cgk-bench-pg-')),
      DATABASE_URL: pgUrl,
      DATABASE_SCHEMA: schema,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `bench:${schema}:`,
    };
    // The bench account on PostgreSQL too (startBenchStack made it on SQLite).
    const { email, password } = stack;
    createBenchAccount(pgEnv, email, password);

    const sqlite = await startService('SQLite + memory', { ...stack.env, ...rpc }, email, password);
    started.push(sqlite.server);
    const postgres = await startService('PostgreSQL + Redis', pgEnv, email, password);
    started.push(postgres.server);
    const bareServer = await spawnServer(
      process.execPath,
      ['-r', 'ts-node/register', 'bench/bare-app.ts'],
      { ...process.env, TS_NODE_SWC: 'true' },
      /READY (\d+)/,
      ROOT,
    );
    started.push(bareServer);
    const bare = {
      name: 'bare NestJS hello',
      server: bareServer,
      scenario: { name: 'bare', method: 'GET', path: '/hello', expectStatus: 200 } as Scenario,
    };
    await fetch(`http://127.0.0.1:${proxy.port}/__proxy/cache`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ on: true }),
    });

    const sides = [bare, sqlite, postgres];
    const runs = new Map<string, Run[]>(sides.map((s) => [s.name, []]));
    const quiet = () => Promise.all(sides.map((s) => untilQuiet(s.server.pid)));
    // Warm-up: JIT, pools, caches (not counted).
    for (const side of sides) {
      await run(side.server.port, side.server.pid, side.scenario, {
        connections: CONNECTIONS,
        seconds: 1,
      });
    }
    const ratios: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // The order turns each round: no side always runs first (or last) after the idle wait.
      for (const side of sides.map((_, i) => sides[(i + round) % sides.length])) {
        await quiet();
        const one = await run(side.server.port, side.server.pid, side.scenario, {
          connections: CONNECTIONS,
          seconds: SECONDS,
        });
        runs.get(side.name)!.push(one);
      }
      const of = (side: (typeof sides)[number]) => runs.get(side.name)![round].cpuMsPerReq;
      ratios.push((of(postgres) / of(sqlite)).toFixed(2));
    }

    const pooled = (list: Run[]) =>
      list.reduce((sum, r) => sum + r.cpuMsPerReq * r.requests, 0) /
      Math.max(
        1,
        list.reduce((sum, r) => sum + r.requests, 0),
      );
    const cpu = Object.fromEntries(sides.map((s) => [s.name, pooled(runs.get(s.name)!)]));
    const f = (n: number, d = 2) => n.toFixed(d);
    const lines = [
      `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s`,
      '',
      '| side | req/s (mean of rounds) | CPU ms/req (pooled) | vs bare | unexpected |',
      '|---|---|---|---|---|',
      ...sides.map((s) => {
        const list = runs.get(s.name)!;
        const rps = list.reduce((sum, r) => sum + r.reqPerSec, 0) / list.length;
        const unexpected = list.reduce((sum, r) => sum + r.unexpected, 0);
        return `| ${s === bare ? s.name : s.scenario.name} | ${f(rps, 0)} | ${f(cpu[s.name], 3)} | ${f(cpu[s.name] / cpu[bare.name])} | ${unexpected} |`;
      }),
      '',
      `PostgreSQL + Redis / SQLite + memory, CPU per swap build: ${f(cpu[postgres.name] / cpu[sqlite.name])} (rounds: ${ratios.join(', ')}); target <= 1.30`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const server of started.reverse()) await server.stop();
    await withPg((c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).catch(
      () => undefined,
    );
    await stack.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
