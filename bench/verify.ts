/**
 * `npm run bench:verify`: POST /verify latency, and the latency of OTHER requests (GET
 * /health/live, a proxy for the event-loop delay) while 20 real proofs are verified at once,
 * with the Groth16 check on the event loop (ZK_VERIFY_THREADS=0, before) and in the worker pool
 * (default size, after). The built service runs in its own process against a devnet in another.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../src/bootstrap/process-settings';
import { parseCredentialFile } from '../src/compliance/zk/credential-file';
import { proveCredential } from '../src/compliance/zk/proof-generator';
import { ROOT, startBenchStack } from './lib/bench-stack';
import { spawnServer } from './lib/spawn-server';

const CONCURRENT = Number(process.env.BENCH_VERIFY_CONCURRENT ?? 20);
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

async function call(port: number, method: string, path: string, body?: unknown, token?: string) {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 400)
    throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(json)}`);
  return { json, ms: performance.now() - started };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (xs: number[]) =>
  `p50 ${pct(xs, 50).toFixed(0)} ms, p99 ${pct(xs, 99).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (n=${xs.length})`;

/** GET /health/live one after another until `stop` resolves; returns each latency. */
async function probe(port: number, stop: Promise<unknown>): Promise<number[]> {
  let done = false;
  void stop.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    latencies.push((await call(port, 'GET', '/health/live')).ms);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return latencies;
}

async function main(): Promise<void> {
  const stack = await startBenchStack('warn');
  const { cli, dataDir, env, email, password } = stack;
  const file = join(dataDir, 'credential.json');
  cli('credentials', 'issue', '--wallet', WALLET, '--out', file);
  const credential = parseCredentialFile(JSON.parse(readFileSync(file, 'utf8')));

  const modes = [
    { name: 'before: on the event loop (ZK_VERIFY_THREADS=0)', threads: '0' },
    {
      name: `after: worker pool (default, ${Math.min(4, Math.max(1, availableParallelism() - 1))} thread(s))`,
      threads: undefined,
    },
  ];
  const lines: string[] = [];
  try {
    for (const mode of modes) {
      const server = await spawnServer(
        process.execPath,
        // As `npm start` launches it (src/bootstrap/process-settings.ts).
        [...SERVICE_NODE_FLAGS, 'dist/main.js'],
        { ...env, ...SERVICE_PROCESS_ENV, ZK_VERIFY_THREADS: mode.threads },
        /Ready on http:\/\/127\.0\.0\.1:(\d+)/,
        ROOT,
      );
      try {
        const token = (await call(server.port, 'POST', '/auth/login', { email, password })).json
          .accessToken as string;
        // Challenges first (back to back), then the proofs: proving takes seconds each, longer
        // than the server keeps an idle keep-alive connection open.
        const challenges: string[] = [];
        for (let i = 0; i <= CONCURRENT; i++) {
          const path = `/verify/challenge?walletAddress=${WALLET}`;
          challenges.push(
            (await call(server.port, 'GET', path, undefined, token)).json.challenge as string,
          );
        }
        const bodies = [];
        for (const challenge of challenges) {
          const proof = await proveCredential(credential, { challenge });
          bodies.push({
            walletAddress: WALLET,
            proof: proof.proof,
            publicSignals: proof.publicSignals,
          });
        }
        // Warm-up: one verification (JIT, worker curve), then an idle probe baseline.
        const warm = await call(server.port, 'POST', '/verify', bodies.pop(), token);
        const idle = await probe(server.port, new Promise((r) => setTimeout(r, 1_000)));
        const started = performance.now();
        const burst = Promise.all(
          bodies.map((b) => call(server.port, 'POST', '/verify', b, token)),
        );
        const [results, busy] = await Promise.all([burst, probe(server.port, burst)]);
        const wall = performance.now() - started;
        lines.push(
          `${mode.name}`,
          `  single /verify (warm-up): ${warm.ms.toFixed(0)} ms`,
          `  ${results.length} concurrent /verify: ${fmt(results.map((r) => r.ms))}; all done in ${wall.toFixed(0)} ms`,
          `  GET /health/live idle: ${fmt(idle)}`,
          `  GET /health/live during the burst: ${fmt(busy)}`,
        );
      } finally {
        await server.stop();
      }
    }
  } finally {
    await stack.stop();
  }
  process.stdout.write(
    `machine: ${cpus().length} x ${cpus()[0]?.model}, node ${process.version}\n${lines.join('\n')}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
