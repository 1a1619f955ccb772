/**
 * `npm run bench:build-cost`: what a build costs in CPU per request, against a bare NestJS hello in
 * the same run: the swap build (buildOnly), the quote and the liquidity build (buildOnly), each in
 * the service's own process with the devnet behind the caching RPC proxy (the EVM excluded), and
 * a protected request that reads no chain (GET /api/v1/defi/config), rounds interleaved (bare,
 * then each scenario of each service, the order turning).
 *
 * - `BENCH_STACKS=embedded[,production]` (default embedded): each checkout's service on SQLite +
 *   memory and/or on PostgreSQL + Redis (TEST_DATABASE_URL, TEST_REDIS_URL), in the same rounds.
 *   `--production-path` (`npm run bench:production-path`): both stacks, the swap build.
 * - `BENCH_OTHER_TREE=<dir>[,<dir>...]` (+ `BENCH_OTHER_NODE=<node>[,<node>...]`, default this
 *   Node): other checkouts, installed and built, measured in the same rounds (e.g. the last
 *   release's commit in a worktree).
 * - `BENCH_PROFILE=<dir>`: the services run with --cpu-prof; after the rounds each scenario runs
 *   at half its measured throughput, and windows.json tells profile-summary.ts when.
 * - `--guard` (`npm run bench:guard`, run by .ci/run): a short run of the swap build and the
 *   protected no-chain request on the embedded stack and the swap build on the production stack,
 *   each after a bare hello; fails when any of three same-run ratios (guard-figures.ts) is more
 *   than 25 % over the figure recorded in bench/build-cost.json. `npm run bench:guard -- --record`
 *   writes those figures instead (on the machine CI runs on).
 * - `--routes` (`npm run bench:routes`, issue 42): the single-pool swap build (WETH -> tUSDC)
 *   and a two-hop one (tWBTC -> WETH -> tUSDC, no direct pool), both buildOnly, in the same
 *   rounds; prints the two-hop build's CPU per request over the single-pool one's and fails
 *   above ROUTES_TARGET.
 *
 * Knobs: BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ONLY=swap|quote|liquidity|config|swapTwoHop.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/bench-stack';
import {
  confirmedRegressions,
  guardedNames,
  guardVerdicts,
  GUARD_TOLERANCE,
  GuardRatios,
  RecordedFigures,
  roundRatios,
} from './lib/guard-figures';
import { run, Scenario, untilQuiet } from './lib/load';
import { median } from './lib/median';
import { spawnServer } from './lib/spawn-server';
import {
  Chain,
  checkouts,
  gitHead,
  SCENARIO_NAMES,
  ScenarioName,
  ServiceTree,
  Stack,
  startChain,
  startServiceTree,
  stopChain,
} from './lib/service-tree';

const GUARD = process.argv.includes('--guard');
const ROUTES = process.argv.includes('--routes');
/** `npm run bench:production-path` (issue 34): the swap build on both stacks, same rounds. */
const PRODUCTION_PATH = process.argv.includes('--production-path');
/** Issue 42: a two-hop swap build's CPU per request within 1.3x a single-pool build's. */
export const ROUTES_TARGET = 1.3;
const RECORD = process.argv.includes('--record');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const FIGURES = join(ROOT, 'bench/build-cost.json');
const STACKS = (
  GUARD
    ? ['embedded', 'production']
    : (process.env.BENCH_STACKS ?? (PRODUCTION_PATH ? 'embedded,production' : 'embedded')).split(
        ',',
      )
) as Stack[];
const ONLY: ScenarioName[] = GUARD
  ? ['swap', 'config']
  : ROUTES
    ? ['swap', 'swapTwoHop']
    : ((process.env.BENCH_ONLY ?? (PRODUCTION_PATH ? 'swap' : 'swap|quote|liquidity|config')).split(
        '|',
      ) as ScenarioName[]);

interface Sample {
  requests: number;
  cpuMs: number;
  reqPerSec: number;
}

/** One measured thing: a scenario of one checkout's service on one stack. */
interface Job {
  key: string;
  port: number;
  pid: number;
  s: Scenario;
}

const keyOf = (t: ServiceTree, scenario: string) => `${t.label} ${t.stack}|${scenario}`;

/**
 * The guard runs the production stack's swap build only (the embedded stack gives the swap and
 * the no-chain request): three jobs per round, a bare hello before each.
 */
function wanted(t: ServiceTree, name: ScenarioName): boolean {
  if (!t.scenarios[name]) return false;
  return !GUARD || t.stack === 'embedded' || name === 'swap';
}

async function main(): Promise<void> {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  // BENCH_PROFILE_INTERVAL: µs between samples (V8's default 1000; 100 for a short request).
  const profile = process.env.BENCH_PROFILE
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${process.env.BENCH_PROFILE}`,
        ...(process.env.BENCH_PROFILE_INTERVAL
          ? [`--cpu-prof-interval=${process.env.BENCH_PROFILE_INTERVAL}`]
          : []),
      ]
    : [];
  const bare = await spawnServer(
    process.execPath,
    [...profile, '-r', 'ts-node/register', 'bench/bare-app.ts'],
    { ...process.env, TS_NODE_SWC: 'true' },
    /READY (\d+)/,
    ROOT,
  );
  const hello: Scenario = { name: 'hello', method: 'GET', path: '/hello', expectStatus: 200 };
  const samples = new Map<string, Sample[]>();
  /** Each key's CPU per request in each round, and each run's over the bare run just before it. */
  const perRound = new Map<string, number[]>();
  const overBare = new Map<string, number[]>();
  const push = <T>(m: Map<string, T[]>, key: string, v: T) =>
    m.set(key, [...(m.get(key) ?? []), v]);
  /** When each half-load run ran (µs, the profiles' clock) and how many requests it served. */
  const windows: Record<string, [number, number, number]> = {};
  const chains: Chain[] = [];
  const services: ServiceTree[] = [];
  try {
    for (const checkout of checkouts(!GUARD)) {
      const chain = await startChain(checkout);
      chains.push(chain);
      for (const stack of STACKS)
        services.push(await startServiceTree(checkout, stack, chain, { nodeArgs: profile }));
    }
    const jobs: Job[] = [{ key: 'bare', port: bare.port, pid: bare.pid, s: hello }];
    for (const name of SCENARIO_NAMES.filter((n) => ONLY.includes(n)))
      for (const t of services.filter((x) => wanted(x, name)))
        jobs.push({
          key: keyOf(t, name),
          port: t.server.port,
          pid: t.server.pid,
          s: t.scenarios[name]!,
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
          push(samples, k.key, {
            requests: r.requests,
            cpuMs: r.cpuMsPerReq * r.requests,
            reqPerSec: r.reqPerSec,
          });
          pair.push(r.cpuMsPerReq);
        }
        push(perRound, j.key, pair[1]);
        push(overBare, j.key, pair[1] / pair[0]);
      }
      process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
    }
    if (process.env.BENCH_PROFILE) {
      // Half load: each service's scenarios (and the bare hello) at half the throughput they
      // reached, for the profiles.
      for (const j of jobs) {
        const rate = median(samples.get(j.key)!.map((x) => x.reqPerSec)) / 2;
        await untilQuiet(j.pid);
        const r = await run(j.port, j.pid, j.s, {
          connections: CONNECTIONS,
          seconds: Math.max(SECONDS, 10),
          rate,
        });
        const [label, scenario = 'hello'] = j.key.split('|');
        windows[`${label} ${scenario} @half`] = [...r.window, r.requests];
        process.stdout.write(
          `${label} ${scenario} @half (${rate.toFixed(0)} req/s, ${r.requests} requests): ${r.cpuMsPerReq.toFixed(3)} CPU ms/req, pid ${j.pid}\n`,
        );
      }
      // The services write their profiles when they exit, after this: the directory may not exist yet.
      mkdirSync(process.env.BENCH_PROFILE, { recursive: true });
      writeFileSync(join(process.env.BENCH_PROFILE, 'windows.json'), JSON.stringify(windows));
    }
  } finally {
    for (const t of services) await t.stop();
    for (const c of chains) await stopChain(c);
    await bare.stop();
  }
  report(services, samples, perRound, overBare);
}

/** CPU ms per request pooled over runs, and each run's own figure. */
function pooled(runs: Sample[]): { ms: number; each: number[] } {
  const requests = runs.reduce((a, r) => a + r.requests, 0);
  return {
    ms: runs.reduce((a, r) => a + r.cpuMs, 0) / Math.max(1, requests),
    each: runs.map((r) => r.cpuMs / Math.max(1, r.requests)),
  };
}

const range = (list: number[]) =>
  `${median(list).toFixed(2)} (${Math.min(...list).toFixed(2)}-${Math.max(...list).toFixed(2)})`;

function report(
  services: ServiceTree[],
  samples: Map<string, Sample[]>,
  perRound: Map<string, number[]>,
  overBare: Map<string, number[]>,
): void {
  const bareRuns = samples.get('bare')!;
  const bare = pooled(bareRuns);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(
    `\n${ROUNDS} rounds of ${SECONDS} s at ${CONNECTIONS} connections, interleaved; ${cpus().length} CPUs, ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n` +
      'CPU ms/req pooled over the rounds; "x bare" is each round\'s scenario run over the bare run just before it (median, min-max)\n',
  );
  out('| tree | stack | scenario | CPU ms/req | x bare (median, min-max) | req/s |');
  out('|---|---|---|---|---|---|');
  out(
    `| bare NestJS hello | - | GET /hello | ${bare.ms.toFixed(3)} | 1.00 | ${median(bareRuns.map((r) => r.reqPerSec)).toFixed(0)} |`,
  );
  for (const name of SCENARIO_NAMES)
    for (const t of services) {
      const key = keyOf(t, name);
      const runs = samples.get(key);
      if (!runs) continue;
      const p = pooled(runs);
      out(
        `| ${t.label} | ${t.stack} | ${name} | ${p.ms.toFixed(3)} (${p.each.map((v) => v.toFixed(3)).join(', ')}) | ` +
          `${range(overBare.get(key)!)} | ${median(runs.map((r) => r.reqPerSec)).toFixed(0)} |`,
      );
    }
  out('');
  // Same-run ratios between services and scenarios: each round's pair, then the median.
  const ratio = (a: string, b: string) =>
    perRound.has(a) && perRound.has(b) ? roundRatios(perRound.get(a)!, perRound.get(b)!) : [];
  const first = services[0];
  for (const t of services) {
    const r = ratio(keyOf(t, 'swap'), keyOf(t, 'config'));
    if (r.length) out(`${t.label} ${t.stack}: swap over config ${range(r)}`);
  }
  for (const t of services.filter((x) => x.stack === 'production'))
    for (const name of SCENARIO_NAMES) {
      const embedded = services.find((x) => x.dir === t.dir && x.stack === 'embedded');
      const r = embedded ? ratio(keyOf(t, name), keyOf(embedded, name)) : [];
      if (r.length) out(`${t.label}: ${name} on production over embedded ${range(r)}`);
    }
  for (const t of services.slice(1).filter((x) => x.stack === first.stack))
    for (const name of SCENARIO_NAMES) {
      const [a, b] = [first, t].map((x) => samples.get(keyOf(x, name)));
      if (a && b)
        out(
          `${name}: ${first.label} at ${(pooled(a).ms / pooled(b).ms).toFixed(2)}x ${t.label}'s CPU`,
        );
    }
  if (ROUTES) {
    const [single, twoHop] = ['swap', 'swapTwoHop'].map(
      (name) => pooled(samples.get(keyOf(first, name))!).ms,
    );
    const r = twoHop / single;
    const verdict = r <= ROUTES_TARGET ? 'ok' : 'OVER TARGET';
    out(
      `\nroutes: two-hop swap build ${twoHop.toFixed(3)} CPU ms/req, single-pool ${single.toFixed(3)}: ` +
        `${r.toFixed(2)}x (target <= ${ROUTES_TARGET}x): ${verdict}`,
    );
    if (verdict !== 'ok') process.exitCode = 1;
  }
  if (!GUARD) return;
  const production = services.find((x) => x.stack === 'production')!;
  const measured: GuardRatios = {
    swapOverBare: median(overBare.get(keyOf(first, 'swap'))!),
    swapOverConfig: median(ratio(keyOf(first, 'swap'), keyOf(first, 'config'))),
    productionOverEmbedded: median(ratio(keyOf(production, 'swap'), keyOf(first, 'swap'))),
  };
  if (RECORD) {
    const round2 = (v: number) => Math.round(v * 100) / 100;
    const figures: RecordedFigures = {
      commit: gitHead(ROOT),
      date: new Date().toISOString().slice(0, 10),
      loadAverage: round2(loadavg()[0]),
      swapOverBare: round2(measured.swapOverBare),
      swapOverConfig: round2(measured.swapOverConfig),
      productionOverEmbedded: round2(measured.productionOverEmbedded),
      note: 'Recorded by `npm run bench:guard -- --record` on the machine CI runs on (bench/request-cost.md, "The guard"; docs/operators/request-cost.md); `npm run bench:guard` fails when a ratio is over its figure x 1.25',
    };
    writeFileSync(FIGURES, `${JSON.stringify(figures, null, 2)}\n`);
    out(`recorded ${FIGURES}: ${JSON.stringify(figures)}`);
    return;
  }
  const recorded = JSON.parse(readFileSync(FIGURES, 'utf8')) as RecordedFigures;
  const verdicts = guardVerdicts(measured, recorded);
  out(
    `\nbuild-cost guard (recorded at ${recorded.commit}, ${recorded.date}; limit +${Math.round((GUARD_TOLERANCE - 1) * 100)} %):`,
  );
  for (const v of verdicts)
    out(
      `  ${v.name}: ${v.measured.toFixed(2)}x; recorded ${v.recorded}x; limit ${v.limit.toFixed(2)}x: ${v.ok ? 'ok' : 'REGRESSION'}`,
    );
  const failed = verdicts.filter((v) => !v.ok).map((v) => v.name);
  const firstRun = process.env.BENCH_GUARD_FIRST_RUN;
  if (firstRun === undefined) {
    if (failed.length === 0) return;
    // A regression is confirmed by a second run of the same rounds before it fails CI.
    out(`\nmeasuring again to confirm ${failed.join(', ')} (a regression must show in both runs)`);
    const again = spawnSync(
      process.execPath,
      ['-r', 'ts-node/register', ...process.argv.slice(1)],
      {
        stdio: 'inherit',
        cwd: ROOT,
        env: { ...process.env, TS_NODE_SWC: 'true', BENCH_GUARD_FIRST_RUN: failed.join(',') },
      },
    );
    process.exitCode = again.status ?? 1;
    return;
  }
  const confirmed = confirmedRegressions(guardedNames(firstRun), verdicts);
  out(
    confirmed.length > 0
      ? `confirmed in both runs: ${confirmed.join(', ')}`
      : `not confirmed: the first run's ${firstRun} is within its limit in this run`,
  );
  if (confirmed.length > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
