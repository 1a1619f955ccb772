/**
 * `npm run bench:trade-auth` (issue 54): the CPU a build spends on hook v3's authorization.
 *
 * 1. (BENCH_ONLY=build) **The swap build with an authorization against without,
 *    same server, same run.** The built service (SQLite, `npm start`'s process settings, the
 *    devnet behind the caching RPC proxy) with two accounts: one enforcing its trade policy on
 *    chain (every build passes the rules phase, reserves in the ledger and carries an
 *    authorization), one without trade rules; each with a ready wallet. Rounds alternate the two
 *    scenarios (order turning), CPU per request of the server process; the ratio is per round,
 *    median reported. Goal: at most 1.1x.
 * 2. (BENCH_ONLY=issue, the default) **In-process**: `TradeAuthorizer.issue` (nonce, EIP-712 digest over the
 *    cached domain separator, secp256k1 signature, hookData) for one pool and for a two-hop
 *    route, and what the hookData adds to the swap encoder, best of ROUNDS x N calls.
 *
 * Knobs: BENCH_ONLY=build|issue, BENCH_ROUNDS (5), BENCH_SECONDS (3), BENCH_CONNECTIONS (8),
 * BENCH_RATE (60 req/s; 0: saturate), BENCH_N (5,000 calls per in-process round).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider, Wallet } from 'ethers';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../src/bootstrap/process-settings';
import { devnetPrivateKeys } from '../src/chain/devnet/devnet';
import { spawnDevnet } from '../src/chain/devnet/devnet-process';
import { createBenchAccount, ROOT } from './lib/bench-stack';
import { jsonApi } from './lib/json-api';
import { run, Scenario, untilQuiet } from './lib/load';
import { median } from './lib/median';
import { setProxyCache, startRpcProxy } from './lib/rpc-proxy';
import { RunningServer, spawnServer } from './lib/spawn-server';
import devnetFile from '../src/config/networks/devnet.json';
import type { ChainRpcService } from '../src/chain/chain-rpc.service';
import { DEVNET_MNEMONIC } from '../src/chain/devnet/constants';
import { NetworkFile, resolveNetworkFile } from '../src/chain/network/network-definition';
import type { NetworkService } from '../src/chain/network/network.service';
import type { ComplianceConfig } from '../src/config/compliance.config';
import type { TradingConfig } from '../src/config/trading.config';
import { encodeSwapCalldata } from '../src/defi-builder/encoding/swap-calldata';
import { TradeAuthorizer } from '../src/trading/onchain/trade-authorizer.service';

const N = Number(process.env.BENCH_N ?? 5_000);
const ROUNDS = 3;
const BUILD_CPU_US = [640, 1_100];
const ONLY = process.env.BENCH_ONLY ?? 'issue';
const BUILD_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const RATE = Number(process.env.BENCH_RATE ?? 60);
const PASSWORD = 'bench password 123';

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function best(label: string, fn: (i: number) => unknown): Promise<number> {
  const perCall: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = cpuMicros();
    for (let i = 0; i < N; i++) await fn(i);
    perCall.push((cpuMicros() - start) / N);
  }
  const min = Math.min(...perCall);
  console.log(
    `${label.padEnd(52)} ${min.toFixed(1)} µs CPU per call (rounds: ${perCall.map((v) => v.toFixed(1)).join(', ')})`,
  );
  return min;
}

async function issueCost(): Promise<void> {
  const net = resolveNetworkFile(devnetFile as NetworkFile);
  if (net.hookVersion !== 3) throw new Error('the devnet file is not on hook v3');
  const key = Wallet.fromPhrase(DEVNET_MNEMONIC).privateKey;
  const authorizer = new TradeAuthorizer(
    {
      production: false,
      authorizerSigner: 'key',
      authorizerPrivateKey: key,
      authorizerPkcs11: undefined,
      authorizationTtlSeconds: 600,
    } as TradingConfig,
    {} as ComplianceConfig,
    { definition: net, contracts: net.contracts } as NetworkService,
    {} as ChainRpcService,
  );
  const traders = Array.from({ length: 64 }, () => Wallet.createRandom().address);
  const second = net.pools.find((p) => p.fee === 100)!;
  const single = await best('TradeAuthorizer.issue, one pool', (i) =>
    authorizer.issue({
      trader: traders[i % 64],
      poolId: net.pool.id,
      route: [net.pool.id],
      zeroForOne: true,
      amount: 10n ** 15n + BigInt(i),
      kind: 'swap',
      deadline: 2_000_000_000,
    }),
  );
  const route = await best('TradeAuthorizer.issue, two-hop route', (i) =>
    authorizer.issue({
      trader: traders[i % 64],
      poolId: net.pool.id,
      route: [net.pool.id, second.id],
      zeroForOne: true,
      amount: 10n ** 15n + BigInt(i),
      kind: 'swap',
      deadline: 2_000_000_000,
      nextAmountMax: 4n * 10n ** 6n,
    }),
  );
  const hookData = (
    await authorizer.issue({
      trader: traders[0],
      poolId: net.pool.id,
      route: [net.pool.id],
      zeroForOne: true,
      amount: 10n ** 15n,
      kind: 'swap',
    })
  ).hookData;
  const encode = (h?: string) => (i: number) =>
    encodeSwapCalldata({
      poolKey: net.pool,
      zeroForOne: true,
      amountIn: 10n ** 15n + BigInt(i),
      amountOutMinimum: 1n,
      deadline: 2_000_000_000n,
      ...(h && { hookData: [h] }),
    });
  const plain = await best('encodeSwapCalldata, no hookData', encode());
  const withData = await best('encodeSwapCalldata, with the authorization', encode(hookData));
  const added = Math.max(single, route) + Math.max(0, withData - plain);
  for (const build of BUILD_CPU_US)
    console.log(
      `a swap build of ${build} µs CPU with the authorization: ${((build + added) / build).toFixed(3)}x (goal: at most 1.1x)`,
    );
}

/** An account with a ready wallet (session, approvals) and its swap scenario. */
async function readyAccount(
  port: number,
  env: NodeJS.ProcessEnv,
  rpcUrl: string,
  email: string,
  walletKey: string,
) {
  const { accessToken } = await jsonApi(port, 'POST', '/auth/login', { email, password: PASSWORD });
  const bearer = { Authorization: `Bearer ${accessToken}` };
  const { key } = await jsonApi(
    port,
    'POST',
    '/api/v1/api-keys',
    { name: 'bench', scopes: ['defi:swap', 'onboarding:write', 'defi:broadcast'] },
    bearer,
  );
  const auth = { 'X-API-Key': key as string };
  const config = await jsonApi(port, 'GET', '/api/v1/defi/config', undefined, bearer);
  const token = (symbol: string): string =>
    config.tokens.find((x: { symbol: string }) => x.symbol === symbol).address;
  const provider = new JsonRpcProvider(rpcUrl, 84532, { staticNetwork: true, cacheTimeout: -1 });
  const wallet = new Wallet(walletKey, provider);
  await jsonApi(
    port,
    'POST',
    '/api/v1/onboarding/activate-session-demo',
    { walletAddress: wallet.address },
    auth,
  );
  const body = {
    tokenIn: token('WETH'),
    tokenOut: token('tUSDC'),
    amount: '1000000000000000',
    userAddress: wallet.address,
  };
  const first = await jsonApi(port, 'POST', '/api/v1/defi/swap', body, auth);
  for (const approval of first.approvals as Array<{ transaction: Record<string, string> }>) {
    const { to, data, value } = approval.transaction;
    await (await wallet.sendTransaction({ to, data, value: BigInt(value) })).wait();
  }
  provider.destroy();
  const scenario: Scenario = {
    name: email,
    method: 'POST',
    path: '/api/v1/defi/swap',
    headers: auth,
    body,
    expectStatus: 200,
  };
  return { bearer, auth, body, scenario };
}

async function buildCost(): Promise<void> {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'cgk-bench-trade-auth-'));
  const devnet = await spawnDevnet({ port: 0 });
  const proxy = await startRpcProxy(devnet.rpcUrl);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    CHAIN_NETWORK: 'devnet',
    LOG_LEVEL: 'warn',
    SEED_DEMO_ACCOUNT: 'false',
    DATA_DIR: dataDir,
    CHAIN_RPC_URL: `http://127.0.0.1:${proxy.port}`,
  };
  let server: RunningServer | undefined;
  try {
    createBenchAccount(env, 'enforcing@example.com', PASSWORD);
    createBenchAccount(env, 'plain@example.com', PASSWORD);
    server = await spawnServer(
      process.execPath,
      [...SERVICE_NODE_FLAGS, 'dist/main.js'],
      { ...env, ...SERVICE_PROCESS_ENV },
      /Ready on http:\/\/127\.0\.0\.1:(\d+)/,
      ROOT,
    );
    const port = server.port;
    const [key1, key2] = devnetPrivateKeys(3).slice(1);
    const enforcing = await readyAccount(port, env, devnet.rpcUrl, 'enforcing@example.com', key1);
    const plain = await readyAccount(port, env, devnet.rpcUrl, 'plain@example.com', key2);
    await jsonApi(
      port,
      'PUT',
      '/api/v1/compliance/policy',
      {
        sources: { mode: 'any', names: [] },
        countries: {},
        minSessionSeconds: 0,
        trading: { enforcement: 'onchain' },
      },
      enforcing.bearer,
    );
    const a = await jsonApi(port, 'POST', '/api/v1/defi/swap', enforcing.body, enforcing.auth);
    const b = await jsonApi(port, 'POST', '/api/v1/defi/swap', plain.body, plain.auth);
    if (!a.authorization || b.authorization || a.simulation.ok !== true)
      throw new Error(
        `not the two builds expected: ${JSON.stringify([a.authorization, b.authorization, a.simulation])}`,
      );
    await setProxyCache(`http://127.0.0.1:${proxy.port}`, true);
    const runOf = (s: Scenario, seconds: number) =>
      run(port, server!.pid, s, {
        connections: CONNECTIONS,
        seconds,
        ...(RATE > 0 ? { rate: RATE } : {}),
      });
    await runOf(enforcing.scenario, 2);
    await runOf(plain.scenario, 2);
    const ratios: number[] = [];
    const cpu = { with: [] as number[], without: [] as number[] };
    for (let round = 0; round < BUILD_ROUNDS; round++) {
      const order =
        round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const);
      const got: Record<string, number> = {};
      for (const which of order) {
        await untilQuiet(server.pid);
        const r = await runOf(which === 'with' ? enforcing.scenario : plain.scenario, SECONDS);
        // A stray timeout on a loaded VM is tolerated (and reported); more is a failure.
        if (r.unexpected > r.requests / 100) {
          const s = which === 'with' ? enforcing : plain;
          const probe = await jsonApi(port, 'POST', '/api/v1/defi/swap', s.body, s.auth).catch(
            (e: Error) => e.message,
          );
          throw new Error(
            `${which}: ${r.unexpected} unexpected answers of ${r.requests}; one more: ${typeof probe === 'string' ? probe.slice(0, 400) : 'ok'}`,
          );
        }
        if (r.unexpected > 0)
          process.stderr.write(`${which}: ${r.unexpected} unexpected answer(s)\n`);
        got[which] = r.cpuMsPerReq;
        cpu[which].push(r.cpuMsPerReq);
      }
      ratios.push(got.with / got.without);
      process.stderr.write(
        `round ${round + 1}/${BUILD_ROUNDS}: ${(got.with / got.without).toFixed(2)}x\n`,
      );
    }
    const ratio = median(ratios);
    console.log(
      `swap build CPU ms/req, ${BUILD_ROUNDS} rounds of ${SECONDS} s at ${RATE > 0 ? `${RATE} req/s` : 'saturation'}, ${CONNECTIONS} connections, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `with an authorization (account enforcing on chain): median ${median(cpu.with).toFixed(3)} (${cpu.with.map((v) => v.toFixed(3)).join(', ')})`,
    );
    console.log(
      `without (account without trade rules):              median ${median(cpu.without).toFixed(3)} (${cpu.without.map((v) => v.toFixed(3)).join(', ')})`,
    );
    console.log(
      `with / without: ${ratio.toFixed(2)}x (rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}); goal <= 1.1x: ${ratio <= 1.1 ? 'ok' : 'OVER'}`,
    );
  } finally {
    await server?.stop();
    await proxy.stop();
    await devnet.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (ONLY.includes('issue')) await issueCost();
  if (ONLY.includes('build')) await buildCost();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
