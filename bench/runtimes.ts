/**
 * `npm run bench:runtimes`: the service on two Node.js runtimes in one run, interleaved: start time
 * (spawn to the "Ready on" line, embedded data, an external devnet) and a swap build's CPU per
 * request (buildOnly; the service process's CPU only, the devnet behind the caching RPC proxy as
 * in `npm run bench`'s service-only mode).
 *
 * The project's runtime runs this checkout. The other runtime needs its own tree, since a native
 * addon is built for one Node: BENCH_OTHER_TREE, a checkout installed and built by that Node's npm,
 * run with BENCH_OTHER_NODE (default /usr/bin/node). bench/README.md says how the figures were made.
 */
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnDevnet } from '../src/chain/devnet/devnet-process';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../src/bootstrap/process-settings';
import { createBenchAccount, ROOT } from './lib/bench-stack';
import { jsonApi } from './lib/json-api';
import { setProxyCache, startRpcProxy } from './lib/rpc-proxy';
import { median } from './lib/median';
import { cpuSeconds } from './lib/process-stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

interface Runtime {
  label: string;
  node: string;
  tree: string;
  dataDir: string;
  version: string;
  startMs: number[];
  cpuMsPerBuild: number[];
  reqPerSec: number[];
}

function runtime(node: string, tree: string): Runtime {
  const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
  const dataDir = mkdtempSync(join(tmpdir(), 'cgk-bench-runtime-'));
  return {
    label: `Node ${version}`,
    node,
    tree,
    dataDir,
    version,
    startMs: [],
    cpuMsPerBuild: [],
    reqPerSec: [],
  };
}

/** Starts the service as `npm start` does, on `r`'s Node and tree; resolves at its ready line. */
function startService(r: Runtime, env: NodeJS.ProcessEnv) {
  const started = process.hrtime.bigint();
  const child = spawn(r.node, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
    cwd: r.tree,
    env: { ...env, ...SERVICE_PROCESS_ENV, DATA_DIR: r.dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise<{ port: number; pid: number; ms: number; stop(): Promise<void> }>(
    (resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Ready on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (!match) return;
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        child.stdout!.removeListener('data', onData);
        child.stdout!.resume();
        resolve({
          port: Number(match[1]),
          pid: child.pid!,
          ms,
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) =>
        reject(new Error(`${r.label} exited with ${code}:\n${output.slice(-2000)}`)),
      );
    },
  );
}

async function main(): Promise<void> {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const otherTree = process.env.BENCH_OTHER_TREE;
  if (!otherTree)
    throw new Error(
      'BENCH_OTHER_TREE: a checkout installed and built by the other Node (bench/README.md)',
    );
  const runtimes = [
    runtime(process.execPath, ROOT),
    runtime(process.env.BENCH_OTHER_NODE ?? '/usr/bin/node', otherTree),
  ];
  const devnet = await spawnDevnet({ port: 0 });
  const proxy = await startRpcProxy(devnet.rpcUrl);
  const proxyUrl = `http://127.0.0.1:${proxy.port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    CHAIN_RPC_URL: proxyUrl,
    CHAIN_NETWORK: 'devnet',
    LOG_LEVEL: 'warn',
    SEED_DEMO_ACCOUNT: 'false',
  };
  const email = 'bench@example.com';
  const password = 'bench password 123';
  try {
    for (const r of runtimes)
      createBenchAccount({ ...env, DATA_DIR: r.dataDir }, email, password, r);
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which runtime goes first, so neither always meets a warmer machine.
      const order = round % 2 === 0 ? runtimes : [...runtimes].reverse();
      for (const r of order) {
        const service = await startService(r, env);
        try {
          r.startMs.push(service.ms);
          const { accessToken } = await jsonApi(service.port, 'POST', '/auth/login', {
            email,
            password,
          });
          const { key } = await jsonApi(
            service.port,
            'POST',
            '/api/v1/api-keys',
            { name: `bench ${round}`, scopes: ['defi:swap', 'defi:preflight'] },
            { Authorization: `Bearer ${accessToken}` },
          );
          const config = await jsonApi(service.port, 'GET', '/api/v1/defi/config', undefined, {
            'X-API-Key': key,
          });
          const token = (symbol: string): string =>
            config.tokens.find((t: { symbol: string }) => t.symbol === symbol).address;
          const body = JSON.stringify({
            tokenIn: token('WETH'),
            tokenOut: token('tUSDC'),
            amount: '1000000000000000',
            userAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
          });
          const request = {
            url: `http://127.0.0.1:${service.port}/api/v1/defi/swap?buildOnly=true`,
            method: 'POST' as const,
            headers: { 'content-type': 'application/json', 'X-API-Key': key },
            body,
          };
          // One build first: a refusal names its code here rather than as a count of non-2xx. Then
          // the chain does not change, and the proxy answers the builds' reads from memory.
          await jsonApi(
            service.port,
            'POST',
            '/api/v1/defi/swap?buildOnly=true',
            JSON.parse(body),
            { 'X-API-Key': key },
          );
          await setProxyCache(proxyUrl, true);
          await autocannon({ ...request, connections: CONNECTIONS, duration: 1 }); // warm-up
          const cpuBefore = cpuSeconds(service.pid);
          const result = await autocannon({
            ...request,
            connections: CONNECTIONS,
            duration: SECONDS,
          });
          if (result.non2xx > 0 || result.errors > 0)
            throw new Error(`${r.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
          r.cpuMsPerBuild.push(
            ((cpuSeconds(service.pid) - cpuBefore) * 1000) / result.requests.total,
          );
          r.reqPerSec.push(result.requests.average);
        } finally {
          await service.stop();
        }
      }
    }
  } finally {
    await proxy.stop();
    await devnet.stop();
    runtimes.forEach((r) => rmSync(r.dataDir, { recursive: true, force: true }));
  }
  const [base] = runtimes;
  process.stdout.write(
    `\n${ROUNDS} rounds, ${SECONDS} s of swap builds (buildOnly) at ${CONNECTIONS} connections each; medians (all rounds)\n\n` +
      '| runtime | start ms | swap build CPU ms/req | vs project runtime | req/s |\n|---|---|---|---|---|\n',
  );
  for (const r of runtimes) {
    const cpu = median(r.cpuMsPerBuild);
    process.stdout.write(
      `| ${r.label} | ${median(r.startMs).toFixed(0)} (${r.startMs.map((v) => v.toFixed(0)).join(', ')}) | ` +
        `${cpu.toFixed(3)} (${r.cpuMsPerBuild.map((v) => v.toFixed(3)).join(', ')}) | ` +
        `${(cpu / median(base.cpuMsPerBuild)).toFixed(2)}x | ${median(r.reqPerSec).toFixed(0)} |\n`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
