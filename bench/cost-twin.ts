/**
 * `npm run bench:cost-twin`: what a server that costs as much per request as a swap build, but
 * runs no framework, gets for `p99 @ half max` on this machine, measured the way `npm run bench`
 * measures the service (autocannon saturating at 32 connections for 5 s, then the paced client at
 * half that rate for 5 s, once the server is idle). The twin (bench/lib/cost-twin-server.cjs)
 * does CPU work, one JSON-RPC call to an upstream process, more work, a JSON answer; with
 * TWIN_UNITS=3 (default) that is ~0.7-1 ms of CPU per request, as a swap build is.
 *
 * Why it is here: it tells a miss of the 10 ms target that any server of that cost would have on
 * this VM from one that is the service's own (bench/README.md, "Eighth session"). Rounds
 * (BENCH_ROUNDS, 3) repeat the pair; the main thread's run and run-queue time at half load come
 * from /proc/<pid>/task/<pid>/schedstat.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/bench-stack';
import { run, Scenario, untilQuiet } from './lib/load';
import { pacedInProcess, stopPacedProcess } from './lib/paced-process';
import { cpuSeconds } from './lib/process-stats';
import { spawnServer } from './lib/spawn-server';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;
const script = join(ROOT, 'bench/lib/cost-twin-server.cjs');

/** The main thread's time on a CPU and waiting for one, ms. */
function schedstat(pid: number): [number, number] {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'latin1').split(' ');
  return [Number(run) / 1e6, Number(wait) / 1e6];
}

async function main(): Promise<void> {
  const upstream = await spawnServer(
    process.execPath,
    [script],
    { ...process.env, TWIN_ROLE: 'upstream' },
    /READY (\d+)/,
    ROOT,
  );
  const twin = await spawnServer(
    process.execPath,
    [script],
    { ...process.env, TWIN_UPSTREAM: String(upstream.port) },
    /READY (\d+)/,
    ROOT,
  );
  const s: Scenario = { name: 'cost twin', method: 'GET', path: '/', expectStatus: 200 };
  const rows: string[] = [];
  try {
    await run(twin.port, twin.pid, s, { connections: CONNECTIONS, seconds: 1 });
    for (let r = 0; r < ROUNDS; r += 1) {
      await untilQuiet(twin.pid);
      const max = await run(twin.port, twin.pid, s, { connections: CONNECTIONS, seconds: SECONDS });
      await untilQuiet(twin.pid);
      const cpuBefore = cpuSeconds(twin.pid);
      const [runBefore, waitBefore] = schedstat(twin.pid);
      const started = Date.now();
      const half = await pacedInProcess(twin.port, s, {
        rate: max.reqPerSec / 2,
        seconds: SECONDS,
        maxInFlight: CONNECTIONS,
      });
      const elapsed = (Date.now() - started) / 1000;
      const [runAfter, waitAfter] = schedstat(twin.pid);
      const cpuAtHalf = ((cpuSeconds(twin.pid) - cpuBefore) * 1000) / Math.max(1, half.requests);
      rows.push(
        `| ${r + 1} | ${max.reqPerSec.toFixed(0)} | ${max.cpuMsPerReq.toFixed(3)} | ${half.p99.toFixed(1)} | ${cpuAtHalf.toFixed(3)} | ${((runAfter - runBefore) / elapsed).toFixed(0)} | ${((waitAfter - waitBefore) / elapsed).toFixed(0)} | ${max.unexpected + half.unexpected} |`,
      );
    }
  } finally {
    stopPacedProcess();
    await twin.stop();
    await upstream.stop();
  }
  const lines = [
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ${CONNECTIONS} connections, ${SECONDS} s per run, TWIN_UNITS=${process.env.TWIN_UNITS ?? 3}`,
    '',
    '| round | req/s | CPU ms/req | p99 @ half max ms | CPU ms/req @ half max | main thread ran, ms/s @ half | main thread waited for a CPU, ms/s @ half | unexpected |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
