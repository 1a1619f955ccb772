/**
 * `npm run bench:http-server`: what Express 5's per-request `Object.setPrototypeOf(req, ...)`
 * costs, and what the service's server classes (src/bootstrap/http-adapter.ts) give back. A plain
 * Express hello (bench/lib/express-hello.ts) runs in its own process twice, with Node's default
 * server classes and with `expressServerClasses`, alternating `BENCH_ROUNDS` times (2 by default):
 * - at a steady 2,000 req/s for 6 s under `--trace-gc-nvp`: the share of allocated bytes the
 *   scavenges promoted to the old generation, and the full collections;
 * - saturated (32 connections, 5 s): req/s and CPU per request.
 */
import { ROOT } from './lib/bench-stack';
import { run, Scenario } from './lib/load';
import { RunningServer, spawnServer } from './lib/spawn-server';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
type Classes = 'node' | 'express';

interface GcTrace {
  promotedShare: number;
  fullCollections: number;
}

/** Starts the hello with `--trace-gc-nvp`; `gc()` reads what it printed so far. */
async function start(classes: Classes): Promise<RunningServer & { gc(): GcTrace }> {
  const server = await spawnServer(
    process.execPath,
    ['--trace-gc-nvp', '-r', 'ts-node/register', 'bench/lib/express-hello.ts'],
    { ...process.env, TS_NODE_SWC: 'true', SERVER_CLASSES: classes },
    /READY (\d+)/,
    ROOT,
  );
  let out = '';
  server.child.stdout!.removeAllListeners('data');
  server.child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return {
    ...server,
    gc() {
      let allocated = 0;
      let promoted = 0;
      let full = 0;
      for (const line of out.split('\n')) {
        const field = (name: string) =>
          Number(new RegExp(`\\b${name}=(\\d+)`).exec(line)?.[1] ?? 0);
        if (/gc=mc\b/.test(line)) full += 1;
        if (!/gc=s\b/.test(line)) continue;
        allocated += field('allocated');
        promoted += field('promoted');
      }
      out = '';
      return { promotedShare: promoted / Math.max(1, allocated), fullCollections: full };
    },
  };
}

const hello: Scenario = { name: 'hello', method: 'GET', path: '/hello', expectStatus: 200 };

async function measure(classes: Classes) {
  const server = await start(classes);
  try {
    await run(server.port, server.pid, hello, { connections: 32, seconds: 2 }); // warm-up
    server.gc();
    await run(server.port, server.pid, hello, { connections: 8, seconds: 6, rate: 2000 });
    const gc = server.gc();
    const max = await run(server.port, server.pid, hello, { connections: 32, seconds: 5 });
    return { classes, ...gc, reqPerSec: max.reqPerSec, cpuUsPerReq: max.cpuMsPerReq * 1000 };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const rows: Array<Awaited<ReturnType<typeof measure>>> = [];
  for (let i = 0; i < ROUNDS; i += 1)
    for (const classes of ['node', 'express'] as const) rows.push(await measure(classes));
  const lines = [
    '| server classes | promoted / allocated @ 2,000 req/s | full collections in 6 s | req/s (32 conn) | CPU µs/req |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.classes === 'node' ? "Node's (Express sets the prototypes)" : 'expressServerClasses'} | ${(r.promotedShare * 100).toFixed(1)} % | ${r.fullCollections} | ${r.reqPerSec.toFixed(0)} | ${r.cpuUsPerReq.toFixed(1)} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
