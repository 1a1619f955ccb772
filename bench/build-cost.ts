/**
 * `npm run bench:build-cost`: what a build costs in CPU per request, against a bare NestJS hello in
 * the same run: the swap build (buildOnly), the quote and the liquidity build (buildOnly), each in
 * the service's own process with the devnet behind the caching RPC proxy (the EVM excluded), on
 * SQLite + memory, and a protected request that reads no chain (GET /api/v1/defi/config), rounds
 * interleaved (bare, then each scenario of each tree, the order turning).
 *
 * - `BENCH_OTHER_TREE=<dir>[,<dir>...]` (+ `BENCH_OTHER_NODE=<node>[,<node>...]`, default this
 *   Node): other checkouts, installed and built, measured in the same rounds (e.g. the last
 *   release's commit in a worktree).
 * - `BENCH_PROFILE=<dir>`: the services run with --cpu-prof; after the rounds each scenario runs
 *   at half its measured throughput, and windows.json tells profile-summary.ts when.
 * - `--guard` (`npm run bench:guard`, run by .ci/run): a short run of the swap build against the
 *   bare hello; fails when the ratio is more than 25 % over the release's figure in
 *   bench/build-cost.json. `npm run bench:guard -- --record` writes that figure instead (at a
 *   release, on the machine CI runs on).
 *
 * - `--routes` (`npm run bench:routes`, issue 42): the single-pool swap build (WETH -> tUSDC)
 *   and a two-hop one (tWBTC -> WETH -> tUSDC, no direct pool), both buildOnly, in the same
 *   rounds; prints the two-hop build's CPU per request over the single-pool one's and fails
 *   above ROUTES_TARGET.
 *
 * Knobs: BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ONLY=swap|quote|liquidity|swapTwoHop.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnDevnet } from '../src/chain/devnet/devnet-process';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../src/bootstrap/process-settings';
import { createBenchAccount, ROOT } from './lib/bench-stack';
import { jsonApi } from './lib/json-api';
import { run, Scenario, untilQuiet } from './lib/load';
import { median } from './lib/median';
import { setProxyCache, startRpcProxy } from './lib/rpc-proxy';
import { RunningServer, spawnServer } from './lib/spawn-server';

const GUARD = process.argv.includes('--guard');
const ROUTES = process.argv.includes('--routes');
/** Issue 42: a two-hop swap build's CPU per request within 1.3x a single-pool build's. */
export const ROUTES_TARGET = 1.3;
const RECORD = process.argv.includes('--record');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (GUARD ? 4 : 5));
const SECONDS = Number(process.env.BENCH_SECONDS ?? (GUARD ? 2 : 3));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const FIGURES = join(ROOT, 'bench/build-cost.json');
/** How much dearer than the recorded figure the guard lets a swap build be. */
export const GUARD_TOLERANCE = 1.25;
const IDLE_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
/** Each scenario run's CPU per request over the bare run just before it. */
const pairedRatios = new Map<string, number[]>();

interface Tree {
  label: string;
  node: string;
  dir: string;
  dataDir: string;
  /** Each tree deploys on its own devnet, with its own code (deployments differ by release). */
  devnet?: { rpcUrl: string; stop(): Promise<void> };
  proxy?: RunningServer;
  proxyUrl?: string;
  server?: RunningServer;
  scenarios: Scenario[];
}

interface Sample {
  requests: number;
  cpuMs: number;
  reqPerSec: number;
}

/** The guard's reference: the swap build over the bare hello, as recorded at the last release. */
export interface RecordedFigures {
  commit: string;
  date: string;
  swapOverBare: number;
  note: string;
}

function tree(label: string, node: string, dir: string): Tree {
  return {
    label,
    node,
    dir,
    dataDir: mkdtempSync(join(tmpdir(), 'cgk-bench-build-')),
    scenarios: [],
  };
}

const scenarioNames = ['swap', 'swapTwoHop', 'quote', 'liquidity', 'config'] as const;

/** The service's environment, as in `npm run bench`'s service-only mode. */
function serviceEnv(t: Tree): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    CHAIN_RPC_URL: t.proxyUrl,
    CHAIN_NETWORK: 'devnet',
    LOG_LEVEL: 'info',
    SEED_DEMO_ACCOUNT: 'false',
    DATA_DIR: t.dataDir,
  };
}

async function startTree(t: Tree): Promise<void> {
  // The other tree's own devnet code (its compiled dist/), run by this Node.
  const devnetModule = (
    t.dir === ROOT
      ? { spawnDevnet }
      : await import(join(t.dir, 'dist/chain/devnet/devnet-process.js'))
  ) as { spawnDevnet: typeof spawnDevnet };
  t.devnet = await devnetModule.spawnDevnet({ port: 0 });
  t.proxy = await startRpcProxy(t.devnet.rpcUrl);
  t.proxyUrl = `http://127.0.0.1:${t.proxy.port}`;
  const env = serviceEnv(t);
  createBenchAccount(env, 'bench@example.com', 'bench password 123', {
    node: t.node,
    tree: t.dir,
  });
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  t.server = await spawnServer(
    t.node,
    [...SERVICE_NODE_FLAGS, ...profile, 'dist/main.js'],
    { ...env, ...SERVICE_PROCESS_ENV },
    /Ready on http:\/\/127\.0\.0\.1:(\d+)/,
    t.dir,
  );
  const port = t.server.port;
  const email = 'bench@example.com';
  const { accessToken } = await jsonApi(port, 'POST', '/auth/login', {
    email,
    password: 'bench password 123',
  });
  const { key } = await jsonApi(
    port,
    'POST',
    '/api/v1/api-keys',
    { name: 'bench', scopes: ['defi:swap', 'defi:liquidity', 'defi:preflight'] },
    { Authorization: `Bearer ${accessToken}` },
  );
  const auth = { 'X-API-Key': key };
  const config = await jsonApi(port, 'GET', '/api/v1/defi/config', undefined, auth);
  const token = (symbol: string): string =>
    config.tokens.find((x: { symbol: string }) => x.symbol === symbol).address;
  const weth = token('WETH');
  const tusdc = token('tUSDC');
  // A pair without a direct pool (the devnet's market, design §9): routed through WETH.
  const twbtc: string | undefined = config.tokens.find(
    (x: { symbol: string }) => x.symbol === 'tWBTC',
  )?.address;
  const all: Record<(typeof scenarioNames)[number], Scenario> = {
    swap: {
      name: 'swap',
      method: 'POST',
      path: '/api/v1/defi/swap?buildOnly=true',
      headers: auth,
      body: {
        tokenIn: weth,
        tokenOut: tusdc,
        amount: '1000000000000000',
        userAddress: IDLE_WALLET,
      },
      expectStatus: 200,
    },
    swapTwoHop: {
      name: 'swapTwoHop',
      method: 'POST',
      path: '/api/v1/defi/swap?buildOnly=true',
      headers: auth,
      body: { tokenIn: twbtc, tokenOut: tusdc, amount: '100000', userAddress: IDLE_WALLET },
      expectStatus: 200,
    },
    quote: {
      name: 'quote',
      method: 'POST',
      path: '/api/v1/defi/quote',
      headers: auth,
      body: { tokenIn: weth, tokenOut: tusdc, amount: '1000000000000000' },
      expectStatus: 200,
    },
    // A protected request that touches no chain: the framework, auth, limits and usage alone.
    config: {
      name: 'config',
      method: 'GET',
      path: '/api/v1/defi/config',
      headers: auth,
      expectStatus: 200,
    },
    liquidity: {
      name: 'liquidity',
      method: 'POST',
      path: '/api/v1/defi/liquidity?buildOnly=true',
      headers: auth,
      body: {
        token0: weth,
        token1: tusdc,
        amount0: '1000000000000000',
        amount1: '3000000',
        tickLower: -887220,
        tickUpper: 887220,
        userAddress: IDLE_WALLET,
      },
      expectStatus: 200,
    },
  };
  const only = GUARD
    ? 'swap'
    : ROUTES
      ? 'swap|swapTwoHop'
      : (process.env.BENCH_ONLY ?? 'swap|quote|liquidity|config');
  t.scenarios = scenarioNames.filter((n) => only.split('|').includes(n)).map((n) => all[n]);
  // One of each first: a refusal names its code here rather than as a count of non-2xx, and the
  // proxy learns the reads it will answer from memory.
  for (const s of t.scenarios) await jsonApi(port, s.method, s.path, s.body, s.headers);
  await setProxyCache(t.proxyUrl, true);
}

function gitHead(dir: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
  } catch {
    return '?';
  }
}

async function main(): Promise<void> {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const trees = [tree(`this checkout (${gitHead(ROOT)})`, process.execPath, ROOT)];
  // Comma-separated: several other trees, each with its Node at the same place in BENCH_OTHER_NODE.
  const others = (GUARD ? '' : (process.env.BENCH_OTHER_TREE ?? '')).split(',').filter(Boolean);
  const nodes = (process.env.BENCH_OTHER_NODE ?? '').split(',');
  others.forEach((dir, i) => {
    const node = nodes[i] || process.execPath;
    const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
    trees.push(tree(`${gitHead(dir)} on Node ${version}`, node, dir));
  });
  const bare = await spawnServer(
    process.execPath,
    ['-r', 'ts-node/register', 'bench/bare-app.ts'],
    { ...process.env, TS_NODE_SWC: 'true' },
    /READY (\d+)/,
    ROOT,
  );
  const hello: Scenario = { name: 'hello', method: 'GET', path: '/hello', expectStatus: 200 };
  const samples = new Map<string, Sample[]>();
  const add = (key: string, s: Sample) => samples.set(key, [...(samples.get(key) ?? []), s]);
  const windows: Record<string, [number, number]> = {};
  try {
    for (const t of trees) await startTree(t);
    type Job = { key: string; port: number; pid: number; s: Scenario };
    const jobs: Job[] = [{ key: 'bare', port: bare.port, pid: bare.pid, s: hello }];
    for (const s of trees[0].scenarios)
      for (const t of trees)
        jobs.push({
          key: `${t.label}|${s.name}`,
          port: t.server!.port,
          pid: t.server!.pid,
          s: t.scenarios.find((x) => x.name === s.name)!,
        });
    // Warm-up: every process's code optimised before anything counts.
    for (const j of jobs) await run(j.port, j.pid, j.s, { connections: CONNECTIONS, seconds: 1 });
    for (let round = 0; round < ROUNDS; round += 1) {
      // Turn the order each round so no job always follows the same one; the bare hello runs
      // between every two scenario runs, so each ratio pairs runs seconds apart.
      const order = jobs.slice(1);
      const shift = round % order.length;
      const turned = [...order.slice(shift), ...order.slice(0, shift)];
      for (const j of turned) {
        const pair: number[] = [];
        for (const k of [jobs[0], j]) {
          await untilQuiet(k.pid);
          const r = await run(k.port, k.pid, k.s, { connections: CONNECTIONS, seconds: SECONDS });
          if (r.unexpected > 0) throw new Error(`${k.key}: ${r.unexpected} unexpected answers`);
          add(k.key, {
            requests: r.requests,
            cpuMs: r.cpuMsPerReq * r.requests,
            reqPerSec: r.reqPerSec,
          });
          pair.push(r.cpuMsPerReq);
        }
        pairedRatios.set(j.key, [...(pairedRatios.get(j.key) ?? []), pair[1] / pair[0]]);
      }
      process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
    }
    if (process.env.BENCH_PROFILE) {
      // Half load: each tree's scenarios at half the throughput they reached, for the profile.
      for (const t of trees)
        for (const s of t.scenarios) {
          const rate = median(samples.get(`${t.label}|${s.name}`)!.map((x) => x.reqPerSec)) / 2;
          await untilQuiet(t.server!.pid);
          const r = await run(t.server!.port, t.server!.pid, s, {
            connections: CONNECTIONS,
            seconds: Math.max(SECONDS, 10),
            rate,
          });
          windows[`${t.label} ${s.name} @half`] = r.window;
          process.stdout.write(
            `${t.label}: ${s.name} @half (${rate.toFixed(0)} req/s): ${r.cpuMsPerReq.toFixed(3)} CPU ms/req, pid ${t.server!.pid}\n`,
          );
        }
      writeFileSync(join(process.env.BENCH_PROFILE, 'windows.json'), JSON.stringify(windows));
    }
  } finally {
    for (const t of trees) {
      await t.server?.stop();
      await t.proxy?.stop();
      await t.devnet?.stop();
    }
    await bare.stop();
    trees.forEach((t) => rmSync(t.dataDir, { recursive: true, force: true }));
  }
  report(trees, samples);
}

/** CPU ms per request pooled over runs, and each run's own figure. */
function pooled(runs: Sample[]): { ms: number; each: number[] } {
  const requests = runs.reduce((a, r) => a + r.requests, 0);
  return {
    ms: runs.reduce((a, r) => a + r.cpuMs, 0) / Math.max(1, requests),
    each: runs.map((r) => r.cpuMs / Math.max(1, r.requests)),
  };
}

function report(trees: Tree[], samples: Map<string, Sample[]>): void {
  const bareRuns = samples.get('bare')!;
  const bare = pooled(bareRuns);
  process.stdout.write(
    `\n${ROUNDS} rounds of ${SECONDS} s at ${CONNECTIONS} connections, interleaved; ${cpus().length} CPUs, ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n` +
      'CPU ms/req pooled over the rounds; "x bare" is each round\'s scenario run over the bare run just before it (median, min-max)\n\n' +
      '| tree | scenario | CPU ms/req | x bare (median, min-max) | req/s |\n|---|---|---|---|---|\n' +
      `| bare NestJS hello | GET /hello | ${bare.ms.toFixed(3)} | 1.00 | ${median(bareRuns.map((r) => r.reqPerSec)).toFixed(0)} |\n`,
  );
  let swapRatio = NaN;
  for (const s of trees[0].scenarios)
    for (const t of trees) {
      const key = `${t.label}|${s.name}`;
      const runs = samples.get(key)!;
      const p = pooled(runs);
      const each = pairedRatios.get(key) ?? [];
      const ratio = median(each);
      if (t === trees[0] && s.name === 'swap') swapRatio = ratio;
      process.stdout.write(
        `| ${t.label} | ${s.name} | ${p.ms.toFixed(3)} (${p.each.map((v) => v.toFixed(3)).join(', ')}) | ` +
          `${ratio.toFixed(2)} (${Math.min(...each).toFixed(2)}-${Math.max(...each).toFixed(2)}) | ` +
          `${median(runs.map((r) => r.reqPerSec)).toFixed(0)} |\n`,
      );
    }
  for (const s of trees[0].scenarios)
    for (const other of trees.slice(1)) {
      const [a, b] = [trees[0], other].map((t) => pooled(samples.get(`${t.label}|${s.name}`)!).ms);
      process.stdout.write(
        `${s.name}: ${trees[0].label} at ${(a / b).toFixed(2)}x ${other.label}'s CPU\n`,
      );
    }
  if (ROUTES) {
    const [single, twoHop] = ['swap', 'swapTwoHop'].map(
      (name) => pooled(samples.get(`${trees[0].label}|${name}`)!).ms,
    );
    const ratio = twoHop / single;
    const verdict = ratio <= ROUTES_TARGET ? 'ok' : 'OVER TARGET';
    process.stdout.write(
      `\nroutes: two-hop swap build ${twoHop.toFixed(3)} CPU ms/req, single-pool ${single.toFixed(3)}: ` +
        `${ratio.toFixed(2)}x (target <= ${ROUTES_TARGET}x): ${verdict}\n`,
    );
    if (verdict !== 'ok') process.exitCode = 1;
  }
  if (RECORD) {
    const figures: RecordedFigures = {
      commit: gitHead(ROOT),
      date: new Date().toISOString().slice(0, 10),
      swapOverBare: Math.round(swapRatio * 100) / 100,
      note: 'Recorded by `npm run bench:guard -- --record` (bench/README.md, "Build cost"); `npm run bench:guard` fails above swapOverBare x 1.25',
    };
    writeFileSync(FIGURES, `${JSON.stringify(figures, null, 2)}\n`);
    process.stdout.write(`recorded ${FIGURES}: swap ${figures.swapOverBare}x bare\n`);
  }
  if (GUARD && !RECORD) {
    const recorded = JSON.parse(readFileSync(FIGURES, 'utf8')) as RecordedFigures;
    const limit = recorded.swapOverBare * GUARD_TOLERANCE;
    const verdict = swapRatio <= limit ? 'ok' : 'REGRESSION';
    process.stdout.write(
      `\nbuild-cost guard: swap build ${swapRatio.toFixed(2)}x bare hello; recorded ${recorded.swapOverBare}x ` +
        `(${recorded.commit}, ${recorded.date}); limit ${limit.toFixed(2)}x (+${Math.round((GUARD_TOLERANCE - 1) * 100)} %): ${verdict}\n`,
    );
    if (verdict !== 'ok') process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
