import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { spawnDevnet } from '../../src/chain/devnet/devnet-process';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../../src/bootstrap/process-settings';
import { createBenchAccount, ROOT } from './bench-stack';
import { jsonApi } from './json-api';
import type { Scenario } from './load';
import { setProxyCache, startRpcProxy } from './rpc-proxy';
import { RunningServer, spawnServer } from './spawn-server';

/**
 * A built service of one checkout on one stack, with the devnet behind the caching RPC proxy (the
 * EVM excluded) and an API key: what build-cost.ts (and the guard) and request-io.ts measure.
 *
 * - `embedded`: SQLite in a data directory of its own, the rate limit and quota in memory (the
 *   default without DATABASE_URL and REDIS_URL);
 * - `production`: PostgreSQL (a schema of its own, dropped at the end) and Redis (a key prefix of
 *   its own, deleted at the end): TEST_DATABASE_URL / TEST_REDIS_URL (or BENCH_DATABASE_URL /
 *   BENCH_REDIS_URL).
 */
export type Stack = 'embedded' | 'production';

export const SCENARIO_NAMES = ['swap', 'swapTwoHop', 'quote', 'liquidity', 'config'] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** A development-mnemonic wallet without a session (bench/run.ts's buildOnly wallet). */
const IDLE_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const EMAIL = 'bench@example.com';
const PASSWORD = 'bench password 123';

/** A checkout (this one, or an installed and built worktree of another commit) and its Node. */
export interface Checkout {
  label: string;
  node: string;
  dir: string;
}

/** One devnet per checkout, deployed by its own code (deployments differ by release). */
export interface Chain {
  devnet: { rpcUrl: string; stop(): Promise<void> };
  proxy: RunningServer;
  proxyUrl: string;
}

export interface ServiceTree extends Checkout {
  stack: Stack;
  server: RunningServer;
  /** Every scenario this checkout can answer (older ones have no two-hop pair). */
  scenarios: Partial<Record<ScenarioName, Scenario>>;
  stop(): Promise<void>;
}

export const databaseUrl = () => process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
export const redisUrl = () => process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;

export function gitHead(dir: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
  } catch {
    return '?';
  }
}

/**
 * This checkout and BENCH_OTHER_TREE's (comma-separated, each with its Node at the same place in
 * BENCH_OTHER_NODE, default this Node).
 */
export function checkouts(withOthers: boolean): Checkout[] {
  const list: Checkout[] = [
    { label: `this checkout (${gitHead(ROOT)})`, node: process.execPath, dir: ROOT },
  ];
  const others = (withOthers ? (process.env.BENCH_OTHER_TREE ?? '') : '')
    .split(',')
    .filter(Boolean);
  const nodes = (process.env.BENCH_OTHER_NODE ?? '').split(',');
  others.forEach((dir, i) => {
    const node = nodes[i] || process.execPath;
    const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
    // The folder too: two worktrees of one commit (an experiment against its base) stay apart.
    list.push({ label: `${gitHead(dir)} in ${basename(dir)} on Node ${version}`, node, dir });
  });
  return list;
}

export async function startChain(checkout: Checkout): Promise<Chain> {
  // The other tree's own devnet code (its compiled dist/), run by this Node.
  const devnetModule = (
    checkout.dir === ROOT
      ? { spawnDevnet }
      : await import(join(checkout.dir, 'dist/chain/devnet/devnet-process.js'))
  ) as { spawnDevnet: typeof spawnDevnet };
  const devnet = await devnetModule.spawnDevnet({ port: 0 });
  const proxy = await startRpcProxy(devnet.rpcUrl);
  return { devnet, proxy, proxyUrl: `http://127.0.0.1:${proxy.port}` };
}

export async function stopChain(chain: Chain): Promise<void> {
  await chain.proxy.stop();
  await chain.devnet.stop();
}

async function withPg<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl()!, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Starts `checkout`'s built service on `stack` against `chain` (as `npm start` runs it: its node
 * flags and environment, LOG_LEVEL=info), signs in, makes an API key and sends each scenario once
 * (a refusal names its code here rather than as a count of non-2xx later).
 */
export async function startServiceTree(
  checkout: Checkout,
  stack: Stack,
  chain: Chain,
  opts: { nodeArgs?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<ServiceTree> {
  const dataDir = mkdtempSync(join(tmpdir(), `cgk-bench-${stack}-`));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    CHAIN_RPC_URL: chain.proxyUrl,
    CHAIN_NETWORK: 'devnet',
    LOG_LEVEL: 'info',
    SEED_DEMO_ACCOUNT: 'false',
    DATA_DIR: dataDir,
    // Metrics kept and served, as where Prometheus scrapes them (docs/operators/observability.md):
    // every request then counts and times itself (src/metrics/http-metrics.ts).
    METRICS_PORT: '0',
    ...opts.env,
  };
  // The service's configuration comes from these alone: the test suites' URLs stay out of it.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const cleanups: Array<() => Promise<void>> = [
    async () => rmSync(dataDir, { recursive: true, force: true }),
  ];
  if (stack === 'production') {
    if (!databaseUrl() || !redisUrl())
      throw new Error(
        'The production stack needs TEST_DATABASE_URL and TEST_REDIS_URL (or BENCH_DATABASE_URL and BENCH_REDIS_URL)',
      );
    const schema = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    await withPg((c) => c.query(`CREATE SCHEMA "${schema}"`));
    cleanups.push(() =>
      withPg((c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).then(() => undefined),
    );
    Object.assign(env, {
      DATABASE_URL: databaseUrl(),
      DATABASE_SCHEMA: schema,
      REDIS_URL: redisUrl(),
      REDIS_KEY_PREFIX: `bench:${schema}:`,
    });
    cleanups.push(() => deleteRedisKeys(`bench:${schema}:`));
  }
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    createBenchAccount(env, EMAIL, PASSWORD, { node: checkout.node, tree: checkout.dir });
    const server = await spawnServer(
      checkout.node,
      [...SERVICE_NODE_FLAGS, ...(opts.nodeArgs ?? []), 'dist/main.js'],
      { ...env, ...SERVICE_PROCESS_ENV },
      /Ready on http:\/\/127\.0\.0\.1:(\d+)/,
      checkout.dir,
    );
    cleanups.push(() => server.stop());
    const scenarios = await benchScenarios(server.port);
    for (const s of Object.values(scenarios))
      await jsonApi(server.port, s.method, s.path, s.body, s.headers);
    // The proxy learns the reads it will then answer from memory.
    await setProxyCache(chain.proxyUrl, true);
    return { ...checkout, stack, server, scenarios, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The measured requests, with an API key of the bench account. */
async function benchScenarios(port: number): Promise<Partial<Record<ScenarioName, Scenario>>> {
  const { accessToken } = await jsonApi(port, 'POST', '/auth/login', {
    email: EMAIL,
    password: PASSWORD,
  });
  const { key } = await jsonApi(
    port,
    'POST',
    '/api/v1/api-keys',
    { name: 'bench', scopes: ['defi:swap', 'defi:liquidity', 'defi:preflight'] },
    { Authorization: `Bearer ${accessToken}` },
  );
  const headers = { 'X-API-Key': key };
  const config = await jsonApi(port, 'GET', '/api/v1/defi/config', undefined, headers);
  const token = (symbol: string): string | undefined =>
    config.tokens.find((x: { symbol: string }) => x.symbol === symbol)?.address;
  const weth = token('WETH');
  const tusdc = token('tUSDC');
  const swap = (name: ScenarioName, body: Record<string, unknown>): Scenario => ({
    name,
    method: 'POST',
    path: '/api/v1/defi/swap?buildOnly=true',
    headers,
    body: { ...body, userAddress: IDLE_WALLET },
    expectStatus: 200,
  });
  return {
    swap: swap('swap', { tokenIn: weth, tokenOut: tusdc, amount: '1000000000000000' }),
    // A pair without a direct pool (the devnet's market, design §9): routed through WETH. Older
    // checkouts have no tWBTC.
    ...(token('tWBTC') && {
      swapTwoHop: swap('swapTwoHop', {
        tokenIn: token('tWBTC'),
        tokenOut: tusdc,
        amount: '100000',
      }),
    }),
    quote: {
      name: 'quote',
      method: 'POST',
      path: '/api/v1/defi/quote',
      headers,
      body: { tokenIn: weth, tokenOut: tusdc, amount: '1000000000000000' },
      expectStatus: 200,
    },
    // A protected request that touches no chain: the framework, auth, limits and usage alone.
    config: {
      name: 'config',
      method: 'GET',
      path: '/api/v1/defi/config',
      headers,
      expectStatus: 200,
    },
    liquidity: {
      name: 'liquidity',
      method: 'POST',
      path: '/api/v1/defi/liquidity?buildOnly=true',
      headers,
      body: fullRangeMint(weth, tusdc, IDLE_WALLET),
      expectStatus: 200,
    },
  };
}

/** The benches' liquidity build: 0.001 WETH + 3 tUSDC over the full range. */
export function fullRangeMint(weth: unknown, tusdc: unknown, userAddress: string) {
  return {
    token0: weth,
    token1: tusdc,
    amount0: '1000000000000000',
    amount1: '3000000',
    tickLower: -887220,
    tickUpper: 887220,
    userAddress,
  };
}
