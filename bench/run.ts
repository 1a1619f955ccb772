/**
 * `npm run bench`: the service (built, its own process) and a bare NestJS "hello" app as the
 * ceiling, measured in the same run, in two modes:
 * - service-only: a caching JSON-RPC proxy (bench/rpc-cache-proxy.ts) between the service and the
 *   devnet answers repeated reads from memory, so the figures are the service's own cost;
 * - devnet: the service reads the devnet directly (the EVM's cost included).
 * Each prints one table with req/s, p50/p99, p99 at half of max throughput, service CPU per
 * request, peak RSS and ratios to the bare app, plus the RPC requests per build.
 * `BENCH_MODE=service|devnet` runs one mode only.
 */
import { HDNodeWallet, JsonRpcProvider, Mnemonic } from 'ethers';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { measure, Measurement, Scenario } from './lib/load';
import { stopPacedProcess } from './lib/paced-process';
import { ROOT, startBenchStack } from './lib/bench-stack';
import { fullRangeMint } from './lib/service-tree';
import { spawnServer } from './lib/spawn-server';
import { stallsIn } from './lib/stalls';
import { memoryMb } from './lib/process-stats';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../src/bootstrap/process-settings';
import { jsonApi } from './lib/json-api';
import { postJson, setProxyCache, startRpcProxy } from './lib/rpc-proxy';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const MNEMONIC = 'test test test test test test test test test test test junk';

type Mode = 'service' | 'devnet';
type Stack = Awaited<ReturnType<typeof startBenchStack>>;
type RpcCounter = () => Promise<Record<string, number>>;

/** Calls per method the devnet has served (its own counter). */
const devnetCounter =
  (rpcUrl: string): RpcCounter =>
  async () =>
    (
      await postJson<{ result: Record<string, number> }>(rpcUrl, {
        jsonrpc: '2.0',
        id: 1,
        method: 'devnet_rpcStats',
        params: [],
      })
    ).result;

/** Calls per method the caching proxy has received (hits and misses alike). */
const proxyCounter =
  (proxyUrl: string): RpcCounter =>
  async () =>
    (
      (await (await fetch(`${proxyUrl}/__proxy/stats`)).json()) as {
        perMethod: Record<string, number>;
      }
    ).perMethod;

const total = (s: Record<string, number>) => Object.values(s).reduce((a, b) => a + b, 0);

/**
 * RPC requests per build, counted at the node (or the proxy) over sequential requests (a load
 * run's warm-up and the requests still in flight at its end would blur the ratio).
 */
async function rpcPerRequest(port: number, count: RpcCounter, s: Scenario): Promise<string> {
  const N = 20;
  // Let the devnet finish the backlog the load run left queued (it serves one call at a time).
  let before = await count();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await count();
    if (total(now) === total(before)) break;
    before = now;
  }
  for (let i = 0; i < N; i += 1) {
    const res = await fetch(`http://127.0.0.1:${port}${s.path}`, {
      method: s.method,
      headers: { 'content-type': 'application/json', ...(s.headers ?? {}) },
      body: s.body === undefined ? undefined : JSON.stringify(s.body),
    });
    await res.arrayBuffer();
  }
  const after = await count();
  const perMethod = Object.keys(after)
    .filter((k) => after[k] !== (before[k] ?? 0))
    .map((k) => `${k}=${((after[k] - (before[k] ?? 0)) / N).toFixed(2)}`);
  process.stdout.write(`RPC per request, ${s.name}: ${perMethod.join(' ')}\n`);
  return ((total(after) - total(before)) / N).toFixed(2);
}

async function runMode(stack: Stack, mode: Mode): Promise<void> {
  const { devnet, env, email, password } = stack;
  // BENCH_STALLS=<file>: what stalls the service's event loop (GC pauses, synchronous SQLite,
  // event-loop delay), logged by a preloaded probe and summed up per half-max run below. The
  // paced client (paced-process.ts) and the RPC proxy log theirs to the same file, tagged.
  const stallsFile = process.env.BENCH_STALLS && resolve(process.env.BENCH_STALLS);
  if (stallsFile) writeFileSync(stallsFile, '');
  const proxy = mode === 'service' ? await startRpcProxy(devnet.rpcUrl, stallsFile) : undefined;
  const proxyUrl = proxy && `http://127.0.0.1:${proxy.port}`;
  const count = proxyUrl ? proxyCounter(proxyUrl) : devnetCounter(devnet.rpcUrl);

  // BENCH_PROFILE=dir writes a V8 CPU profile of the service (open it in Chrome DevTools) and
  // windows-<mode>.json, when each scenario's saturating run ran (profile-summary.ts --window).
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  // BENCH_NODE_FLAGS: extra flags for the service's node (e.g. heap experiments).
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  if (stallsFile) flags.push('-r', join(ROOT, 'bench/lib/stall-probe.cjs'));
  // Launched as `npm start` launches it (src/bootstrap/process-settings.ts); BENCH_UNTUNED=1
  // leaves out those start-up settings (the A/B of bench/README.md).
  const untuned = process.env.BENCH_UNTUNED === '1';
  const service = await spawnServer(
    process.execPath,
    [...(untuned ? [] : SERVICE_NODE_FLAGS), ...flags, ...profile, 'dist/main.js'],
    {
      ...env,
      ...(untuned ? {} : SERVICE_PROCESS_ENV),
      CHAIN_RPC_URL: proxyUrl ?? devnet.rpcUrl,
      BENCH_STALLS: stallsFile,
    },
    /Ready on http:\/\/127\.0\.0\.1:(\d+)/,
    ROOT,
  );
  const booted = memoryMb(service.pid);
  const startBare = (serverClasses?: 'express') =>
    spawnServer(
      process.execPath,
      ['-r', 'ts-node/register', 'bench/bare-app.ts'],
      { ...process.env, TS_NODE_SWC: 'true', SERVER_CLASSES: serverClasses },
      /READY (\d+)/,
      ROOT,
    );
  const bare = await startBare();
  // The same hello on the service's HTTP adapter: how much of a ratio is the adapter's.
  const bareOnAdapter = await startBare('express');
  try {
    const { accessToken } = await jsonApi(service.port, 'POST', '/auth/login', { email, password });
    const scopes = [
      'defi:swap',
      'defi:liquidity',
      'defi:preflight',
      'usage:read',
      'onboarding:write',
      'compliance:verify',
    ];
    const { key } = await jsonApi(
      service.port,
      'POST',
      '/api/v1/api-keys',
      { name: `bench ${mode}`, scopes },
      { Authorization: `Bearer ${accessToken}` },
    );
    const auth = { 'X-API-Key': key };
    const config = await jsonApi(service.port, 'GET', '/api/v1/defi/config', undefined, auth);
    const token = (symbol: string): string =>
      config.tokens.find((t: { symbol: string }) => t.symbol === symbol).address;
    const weth = token('WETH');
    const tusdc = token('tUSDC');

    // Wallet 1 trades with an active session and approvals in place (the estimateGas path);
    // wallet 2 has no session and is built with buildOnly=true.
    const provider = new JsonRpcProvider(devnet.rpcUrl, 84532, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    const account = (i: number) =>
      HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(MNEMONIC), `m/44'/60'/0'/0/${i}`).connect(
        provider,
      );
    const trader = account(1);
    const idle = account(2);
    await jsonApi(
      service.port,
      'POST',
      '/onboarding/activate-session-demo',
      { walletAddress: trader.address },
      auth,
    );
    const swapBody = {
      tokenIn: weth,
      tokenOut: tusdc,
      amount: '1000000000000000',
      userAddress: trader.address,
    };
    const first = await jsonApi(service.port, 'POST', '/api/v1/defi/swap', swapBody, auth);
    const liquidityBody = fullRangeMint(weth, tusdc, trader.address);
    const firstLiquidity = await jsonApi(
      service.port,
      'POST',
      '/api/v1/defi/liquidity',
      liquidityBody,
      auth,
    );
    const approvals = new Map<string, { to: string; data: string }>();
    for (const a of [...first.approvals, ...firstLiquidity.approvals])
      approvals.set(a.transaction.to + a.transaction.data, a.transaction);
    for (const tx of approvals.values())
      await (await trader.sendTransaction({ to: tx.to, data: tx.data })).wait();
    // From here on the chain does not change: the proxy may answer repeated reads from memory.
    if (proxyUrl) await setProxyCache(proxyUrl, true);

    const scenarios: Array<Scenario & { rpcPerRequest?: boolean }> = [
      {
        name: 'liveness (our middleware, no auth)',
        method: 'GET',
        path: '/health/live',
        expectStatus: 200,
      },
      {
        name: 'defi config (auth + limit + usage, no chain)',
        method: 'GET',
        path: '/api/v1/defi/config',
        headers: auth,
        expectStatus: 200,
      },
      {
        name: 'swap build, buildOnly (no session)',
        method: 'POST',
        path: '/api/v1/defi/swap?buildOnly=true',
        headers: auth,
        body: { ...swapBody, userAddress: idle.address },
        expectStatus: 200,
        rpcPerRequest: true,
      },
      {
        name: 'swap build, active session (+estimateGas)',
        method: 'POST',
        path: '/api/v1/defi/swap',
        headers: auth,
        body: swapBody,
        expectStatus: 200,
        rpcPerRequest: true,
      },
      {
        name: 'liquidity build',
        method: 'POST',
        path: '/api/v1/defi/liquidity',
        headers: auth,
        body: liquidityBody,
        expectStatus: 200,
        rpcPerRequest: true,
      },
      {
        name: 'quote',
        method: 'POST',
        path: '/api/v1/defi/quote',
        headers: auth,
        body: { tokenIn: weth, tokenOut: tusdc, amount: '1000000000000000' },
        expectStatus: 200,
        rpcPerRequest: true,
      },
      {
        name: 'preflight',
        method: 'GET',
        path: `/api/v1/defi/preflight/${trader.address}`,
        headers: auth,
        expectStatus: 200,
        rpcPerRequest: true,
      },
      {
        name: 'usage stats',
        method: 'GET',
        path: '/api/v1/usage/stats',
        headers: auth,
        expectStatus: 200,
      },
      {
        name: 'auth failure (hash mismatch)',
        method: 'POST',
        path: '/api/v1/defi/swap',
        headers: { 'X-API-Key': `${key.slice(0, -4)}0000` },
        body: swapBody,
        expectStatus: 401,
      },
    ];

    const baseline = await measure(
      bare.port,
      bare.pid,
      { name: 'bare NestJS hello', method: 'GET', path: '/hello', expectStatus: 200 },
      CONNECTIONS,
      SECONDS,
    );
    const rows: Array<Measurement & { rpc?: string }> = [
      await measure(
        bareOnAdapter.port,
        bareOnAdapter.pid,
        {
          name: "bare NestJS hello on the service's HTTP adapter",
          method: 'GET',
          path: '/hello',
          expectStatus: 200,
        },
        CONNECTIONS,
        SECONDS,
      ),
    ];
    // In devnet mode the estimateGas scenarios are bound by the devnet's EVM (one thread
    // simulating each swap); they also run at 4 connections, where the figures describe the
    // service, not the queue.
    const lowConcurrency =
      mode === 'devnet'
        ? scenarios
            .filter((sc) => sc.name.includes('estimateGas') || sc.name.includes('liquidity'))
            .map((sc) => ({ ...sc, name: `${sc.name} @4 conn`, connections: 4 }))
        : [];
    // Service-only mode also alternates short runs of each scenario with the bare app's and reports
    // their CPU ratio (BENCH_INTERLEAVE pairs, 3 by default; 0 turns it off).
    const rounds = Number(process.env.BENCH_INTERLEAVE ?? (mode === 'service' ? 3 : 0));
    const bareBaseline = {
      port: bare.port,
      pid: bare.pid,
      scenario: {
        name: 'bare NestJS hello',
        method: 'GET' as const,
        path: '/hello',
        expectStatus: 200,
      },
    };
    const only = process.env.BENCH_ONLY;
    for (const scenario of [...scenarios, ...lowConcurrency].filter(
      (sc) => !only || only.split('|').some((part) => sc.name.includes(part)),
    )) {
      const m = await measure(
        service.port,
        service.pid,
        scenario,
        (scenario as { connections?: number }).connections ?? CONNECTIONS,
        SECONDS,
        // The control: the cheapest server of the bench (the bare hello on the service's adapter)
        // paced at this scenario's half-max rate the same minute, so a p99 over target can be
        // told apart from what the machine and the client add to any server's tail at that rate.
        {
          interleave: { bare: bareBaseline, rounds, seconds: 3 },
          control: { ...bareBaseline, port: bareOnAdapter.port, pid: bareOnAdapter.pid },
        },
      );
      const rpc = scenario.rpcPerRequest
        ? await rpcPerRequest(service.port, count, scenario)
        : undefined;
      rows.push({ ...m, rpc });
    }
    if (process.env.BENCH_PROFILE) {
      // The service writes its profile only when it exits; the folder may not exist yet.
      mkdirSync(process.env.BENCH_PROFILE, { recursive: true });
      writeFileSync(
        join(process.env.BENCH_PROFILE, `windows-${mode}.json`),
        JSON.stringify(
          Object.fromEntries(
            rows.flatMap((r) => [
              [r.name, r.window],
              [`${r.name} @half`, r.halfWindowUs],
            ]),
          ),
          null,
          1,
        ),
      );
    }
    process.stdout.write(
      mode === 'service'
        ? '\n## service-only: a caching JSON-RPC proxy answers repeated reads (the EVM excluded)\n\n'
        : '\n## devnet: the service reads the devnet directly (the EVM included)\n\n',
    );
    printTable(baseline, rows);
    process.stdout.write(
      `\nservice after boot, before any load: RSS ${booted.rss.toFixed(0)} MB (peak so far ${booted.peak.toFixed(0)} MB)\n`,
    );
    if (stallsFile) printStalls(stallsFile, rows);
  } finally {
    if (proxyUrl) await setProxyCache(proxyUrl, false);
    await service.stop();
    await bare.stop();
    await bareOnAdapter.stop();
    await proxy?.stop();
  }
}

async function main(): Promise<void> {
  const modes: Mode[] = process.env.BENCH_MODE
    ? [process.env.BENCH_MODE as Mode]
    : ['service', 'devnet'];
  const stack = await startBenchStack();
  try {
    for (const mode of modes) await runMode(stack, mode);
  } finally {
    stopPacedProcess();
    await stack.stop();
  }
}

function printStalls(file: string, rows: Measurement[]): void {
  const lines = [
    '',
    'event-loop stalls of the service during each half-max run (BENCH_STALLS):',
    '',
    '| scenario | loop delay p99 ms (worst second) | loop delay max ms | main thread waited for a CPU, ms | GC pauses > 2 ms | GC ms | longest GC ms | SQLite > 2 ms | longest SQLite ms | paced client: GC pauses > 2 ms, longest ms | old-gen growth KB/req (seconds with a full GC) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    // The bare rows run in their own processes: the probe watches the service only.
    ...rows
      .filter((r) => !r.name.startsWith('bare'))
      .map((r) => {
        const s = stallsIn(file, r.halfWindow);
        return `| ${r.name} | ${s.delayP99} | ${s.delayMax} | ${Number.isNaN(s.cpuWaitMs) ? '-' : s.cpuWaitMs.toFixed(0)} | ${s.gcPauses} | ${s.gcMs.toFixed(0)} | ${s.gcMax} | ${s.sqlStalls} | ${s.sqlMax} | ${s.clientGcPauses}, ${s.clientGcMax} | ${Number.isNaN(s.oldGrowthKbPerSecond) ? '-' : (s.oldGrowthKbPerSecond / (r.reqPerSec / 2)).toFixed(2)} (${s.oldShrankSeconds}) |`;
      }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  // The windows stay in the file, to line other traces up with them later.
  appendFileSync(
    file,
    rows.map((r) => `${r.halfWindow[0]} HALF ${r.halfWindow[1]} ${r.name}\n`).join(''),
  );
}

function printTable(base: Measurement, rows: Array<Measurement & { rpc?: string }>): void {
  const f = (n: number, d = 1) => n.toFixed(d);
  const lines = [
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}; ${CONNECTIONS} connections, ${SECONDS} s per run`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | p99 @ half max ms | control: bare hello on our adapter at that rate, p99 ms | CPU ms/req | CPU ms/req @ half max | RSS under load MB | peak RSS MB | RPC/req | req/s vs bare | CPU vs bare | CPU vs bare, interleaved (range of pairs) | unexpected |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${base.name} | ${f(base.reqPerSec, 0)} | ${base.p50} | ${base.p99} | ${base.p99AtHalf} | - | ${f(base.cpuMsPerReq, 3)} | ${f(base.cpuMsPerReqAtHalf, 3)} | ${f(base.rssUnderLoadMb, 0)} | ${f(base.rssMb, 0)} | - | 1.00 | 1.00 | - | ${base.unexpected} |`,
    ...rows.map(
      (r) =>
        `| ${r.name} | ${f(r.reqPerSec, 0)} | ${r.p50} | ${r.p99} | ${r.p99AtHalf} | ${r.controlP99AtHalf ?? '-'} | ${f(r.cpuMsPerReq, 3)} | ${f(r.cpuMsPerReqAtHalf, 3)} | ${f(r.rssUnderLoadMb, 0)} | ${f(r.rssMb, 0)} | ${r.rpc ?? '-'} | ${f(r.reqPerSec / base.reqPerSec, 2)} | ${f(r.cpuMsPerReq / base.cpuMsPerReq, 2)} | ${r.interleaved ? `${f(r.interleaved.pooled, 2)} (${f(r.interleaved.min, 2)}-${f(r.interleaved.max, 2)})` : '-'} | ${r.unexpected} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
