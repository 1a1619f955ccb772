/**
 * `npm run bench:cost-twin`: what a server that costs as much per request as a swap build, but
 * runs no framework, gets for `p99 @ half max` on this machine, measured by the same `measure()`
 * as the service in `npm run bench` (a 1 s warm-up, autocannon saturating at BENCH_CONNECTIONS
 * (32) for BENCH_SECONDS (5), then, once the server is idle, the paced client at half that rate
 * for as long). The twin (bench/lib/cost-twin-server.cjs) does CPU work, one JSON-RPC call to an
 * upstream process, more work, and answers JSON; with TWIN_UNITS=3 (default) that is ~0.6-1 ms
 * of CPU per request on this VM, as a swap build is.
 *
 * Why it is here: it tells a miss of the 10 ms target that any server of that cost would have on
 * this VM from one that is the service's own (bench/README.md, "Eighth session"). BENCH_ROUNDS
 * (3) repeats the measurement.
 */
import { cpus } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/bench-stack';
import { measure, Scenario } from './lib/load';
import { stopPacedProcess } from './lib/paced-process';
import { RunningServer, spawnServer } from './lib/spawn-server';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const script = join(ROOT, 'bench/lib/cost-twin-server.cjs');

const start = (env: NodeJS.ProcessEnv) =>
  spawnServer(process.execPath, [script], { ...process.env, ...env }, /READY (\d+)/, ROOT);

async function main(): Promise<void> {
  const s: Scenario = { name: 'cost twin', method: 'GET', path: '/', expectStatus: 200 };
  const servers: RunningServer[] = [];
  const rows: string[] = [];
  try {
    const upstream = await start({ TWIN_ROLE: 'upstream' });
    servers.push(upstream);
    const twin = await start({ TWIN_UPSTREAM: String(upstream.port) });
    servers.push(twin);
    for (let r = 0; r < ROUNDS; r += 1) {
      const m = await measure(twin.port, twin.pid, s, CONNECTIONS, SECONDS);
      const halfRate = m.reqPerSec / 2;
      rows.push(
        `| ${r + 1} | ${m.reqPerSec.toFixed(0)} | ${m.cpuMsPerReq.toFixed(3)} | ${m.p99AtHalf} | ${m.cpuMsPerReqAtHalf.toFixed(3)} | ${(m.cpuMsPerReqAtHalf / m.cpuMsPerReq).toFixed(2)} | ${(m.cpuMsPerReqAtHalf * halfRate).toFixed(0)} | ${m.unexpected} |`,
      );
    }
  } finally {
    stopPacedProcess();
    for (const server of servers.reverse()) await server.stop();
  }
  const lines = [
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ${CONNECTIONS} connections, ${SECONDS} s per run, TWIN_UNITS=${process.env.TWIN_UNITS ?? 3}`,
    '',
    '| round | req/s | CPU ms/req | p99 @ half max ms | CPU ms/req @ half max | @ half / saturated | CPU ms per second @ half max | unexpected |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
