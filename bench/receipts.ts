/**
 * `npm run bench:receipts` (issue 56): what compliance receipts cost.
 *
 * 1. **Build CPU with the receipt against without.** The swap build of a ready wallet (session
 *    active, Permit2 allowances in place: the estimate runs, and with receipts the simulation
 *    rides in its batch, the JWS is signed and the row stored), in this checkout and in the tree
 *    just before receipts existed (a git worktree of the parent of the commit that added
 *    src/receipts, built with this node_modules), each on its own devnet behind the caching RPC
 *    proxy (the EVM excluded), SQLite + memory (BENCH_DATABASE_URL: PostgreSQL), `npm start`'s
 *    process settings. Each round loads both trees at once, at the same rate; the ratio is this
 *    tree's CPU per request over the base's, per round (median, min-max). Goal: at most 1.25x.
 * 2. **The export at a million receipts.** BENCH_RECEIPTS rows (default 1,000,000, spread over 30
 *    days: a month) of a real relayed swap's receipt with its execution, written straight into the
 *    database, then GET /api/v1/compliance/receipts/export of the month read as fast as the client
 *    can, and of its first 1 % for comparison: receipts a second, and the server's peak RSS (every
 *    50 ms) over its RSS before. Goals: at least 20,000 a second, memory flat (the month's peak
 *    within a few MB of the 1 %'s). BENCH_DATABASE_URL=postgres://... runs it on PostgreSQL.
 *
 * Knobs: BENCH_ONLY=build|export, BENCH_ROUNDS (5), BENCH_SECONDS (3), BENCH_CONNECTIONS (16),
 * BENCH_RATE (100 req/s for both trees; 0: saturate each),
 * BENCH_RECEIPTS, BENCH_BASE_TREE=<dir> (a built checkout to compare with instead of the worktree),
 * BENCH_PROFILE=<dir> (CPU profiles of the services, one .cpuprofile per process).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { JsonRpcProvider, Wallet } from 'ethers';
import { Client } from 'pg';
import { spawnDevnet } from '../src/chain/devnet/devnet-process';
import { devnetPrivateKeys } from '../src/chain/devnet/devnet';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../src/bootstrap/process-settings';
import { generateEs256Key } from '../src/config/es256-key';
import { createPrivateKey } from 'node:crypto';
import { AbiCoder } from 'ethers';
import { callKeyOf } from '../src/receipts/call-key';
import { compactJws } from '../src/receipts/signing/compact-jws';
import {
  decodeSimulateResult,
  transactionGasOf,
  walletSimulationCall,
} from '../src/chain/simulation/wallet-simulation';
import { createBenchAccount, ROOT } from './lib/bench-stack';
import { jsonApi } from './lib/json-api';
import { run, Scenario, untilQuiet } from './lib/load';
import { median } from './lib/median';
import { cpuSeconds, memoryMb } from './lib/process-stats';
import { setProxyCache, startRpcProxy } from './lib/rpc-proxy';
import { RunningServer, spawnServer } from './lib/spawn-server';

export const BUILD_TARGET = 1.25;
export const EXPORT_RATE_TARGET = 20_000;
const ONLY = process.env.BENCH_ONLY ?? 'build|export';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/**
 * Both trees at the same request rate (0: as fast as each can). At saturation the slower tree
 * idles more between requests, and on these VMs an idler process pays more CPU per request
 * (docs/architecture.md, "Conclusions of investigations"): the same rate compares the work.
 */
const RATE = Number(process.env.BENCH_RATE ?? 100);
const RECEIPTS = Number(process.env.BENCH_RECEIPTS ?? 1_000_000);
const EMAIL = 'bench@example.com';
const PASSWORD = 'bench password 123';
/** Development account 1: funded with ETH, WETH and tUSDC on every devnet. */
const WALLET_KEY = devnetPrivateKeys(2)[1];
const DAY_MS = 86_400_000;

interface Tree {
  label: string;
  dir: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  devnet?: { rpcUrl: string; stop(): Promise<void> };
  proxy?: RunningServer;
  server?: RunningServer;
  swap?: Scenario;
  auth?: Record<string, string>;
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

/** The tree without receipts: the parent of the commit that added the receipts module. */
function baseTree(): string {
  if (process.env.BENCH_BASE_TREE) return process.env.BENCH_BASE_TREE;
  const added = git(
    'log',
    '--diff-filter=A',
    '--format=%H',
    '--',
    'src/receipts/receipts.module.ts',
  )
    .split('\n')
    .pop()!;
  const base = git('rev-parse', '--short', `${added}^`);
  const dir = join(tmpdir(), `cgk-bench-receipts-base-${base}`);
  if (!existsSync(join(dir, 'dist', 'main.js'))) {
    if (!existsSync(dir)) git('worktree', 'add', '--detach', dir, base);
    if (!existsSync(join(dir, 'node_modules')))
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    execFileSync('npm', ['run', '-s', 'build'], { cwd: dir, stdio: 'inherit' });
  }
  return dir;
}

function tree(label: string, dir: string): Tree {
  const dataDir = mkdtempSync(join(tmpdir(), 'cgk-bench-receipts-'));
  return {
    label,
    dir,
    dataDir,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      CHAIN_NETWORK: 'devnet',
      LOG_LEVEL: 'warn',
      SEED_DEMO_ACCOUNT: 'false',
      DATA_DIR: dataDir,
      // The relayed swap's receipt gets its execution quickly (the export's template row).
      WEBHOOK_SCAN_INTERVAL_MS: '200',
    },
  };
}

/** BENCH_DATABASE_URL: the tree on a schema of its own in that PostgreSQL (dropped after). */
async function withSchema(t: Tree): Promise<void> {
  if (!process.env.BENCH_DATABASE_URL) return;
  const schema = `bench_receipts_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const client = new Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.end();
  Object.assign(t.env, { DATABASE_URL: process.env.BENCH_DATABASE_URL, DATABASE_SCHEMA: schema });
}

async function dropSchema(t: Tree): Promise<void> {
  if (!t.env.DATABASE_SCHEMA) return;
  const client = new Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA "${t.env.DATABASE_SCHEMA}" CASCADE`);
  await client.end();
}

async function startTree(t: Tree, extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
  await withSchema(t);
  const devnetModule = (
    t.dir === ROOT
      ? { spawnDevnet }
      : await import(join(t.dir, 'dist/chain/devnet/devnet-process.js'))
  ) as { spawnDevnet: typeof spawnDevnet };
  t.devnet = await devnetModule.spawnDevnet({ port: 0 });
  t.proxy = await startRpcProxy(t.devnet.rpcUrl);
  Object.assign(t.env, { CHAIN_RPC_URL: `http://127.0.0.1:${t.proxy.port}` }, extraEnv);
  createBenchAccount(t.env, EMAIL, PASSWORD, { tree: t.dir });
  t.server = await startServer(t);
  const port = t.server.port;
  const { accessToken } = await jsonApi(port, 'POST', '/auth/login', {
    email: EMAIL,
    password: PASSWORD,
  });
  const bearer = { Authorization: `Bearer ${accessToken}` };
  const { key } = await jsonApi(
    port,
    'POST',
    '/api/v1/api-keys',
    { name: 'bench', scopes: ['defi:swap', 'onboarding:write', 'defi:broadcast'] },
    bearer,
  );
  t.auth = { 'X-API-Key': key };
  const config = await jsonApi(port, 'GET', '/api/v1/defi/config', undefined, bearer);
  const token = (symbol: string): string =>
    config.tokens.find((x: { symbol: string }) => x.symbol === symbol).address;
  const wallet = new Wallet(
    WALLET_KEY,
    new JsonRpcProvider(t.devnet.rpcUrl, 84532, { staticNetwork: true, cacheTimeout: -1 }),
  );
  await jsonApi(
    port,
    'POST',
    '/api/v1/onboarding/activate-session-demo',
    { walletAddress: wallet.address },
    t.auth,
  );
  const body = {
    tokenIn: token('WETH'),
    tokenOut: token('tUSDC'),
    amount: '1000000000000000',
    userAddress: wallet.address,
  };
  // The wallet signs its approvals itself; then the build is ready (estimate, simulation).
  const first = await jsonApi(port, 'POST', '/api/v1/defi/swap', body, t.auth);
  for (const approval of first.approvals as Array<{ transaction: Record<string, string> }>) {
    const { to, data, value } = approval.transaction;
    await (await wallet.sendTransaction({ to, data, value: BigInt(value) })).wait();
  }
  const ready = await jsonApi(port, 'POST', '/api/v1/defi/swap', body, t.auth);
  if (ready.approvals.length > 0 || ready.simulation.ok !== true)
    throw new Error(`${t.label}: the swap is not ready: ${JSON.stringify(ready.simulation)}`);
  t.swap = {
    name: 'swap (ready wallet)',
    method: 'POST',
    path: '/api/v1/defi/swap',
    headers: t.auth,
    body,
    expectStatus: 200,
  };
  (wallet.provider as JsonRpcProvider).destroy();
  await setProxyCache(`http://127.0.0.1:${t.proxy.port}`, true);
}

function startServer(t: Tree): Promise<RunningServer> {
  // BENCH_PROFILE=<dir>: V8 CPU profiles of the services (bench/profile-summary.ts reads them).
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  return spawnServer(
    process.execPath,
    [...SERVICE_NODE_FLAGS, ...profile, 'dist/main.js'],
    { ...t.env, ...SERVICE_PROCESS_ENV },
    /Ready on http:\/\/127\.0\.0\.1:(\d+)/,
    t.dir,
  );
}

async function stopTree(t: Tree): Promise<void> {
  await t.server?.stop();
  await t.proxy?.stop();
  await t.devnet?.stop();
  await dropSchema(t);
  rmSync(t.dataDir, { recursive: true, force: true });
}

/** CPU per call of `fn` (µs), the best of three passes of `n` calls, in this process. */
function cpuMicros(n: number, fn: () => unknown): number {
  let best = Infinity;
  for (let pass = 0; pass < 3; pass += 1) {
    const before = process.cpuUsage();
    for (let i = 0; i < n; i += 1) fn();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / n);
  }
  return best;
}

/**
 * What each step a receipt adds to a build costs, on the receipt this tree just issued for the
 * bench's swap, one step at a time in this process (the server's steps, isolated).
 */
async function stepCosts(t: Tree): Promise<void> {
  const port = t.server!.port;
  const built = await jsonApi(port, 'POST', '/api/v1/defi/swap', t.swap!.body, t.auth);
  const { accessToken } = await jsonApi(port, 'POST', '/auth/login', {
    email: EMAIL,
    password: PASSWORD,
  });
  const { receipt, jws } = await jsonApi(
    port,
    'GET',
    `/api/v1/compliance/receipts/${built.receiptId}`,
    undefined,
    { Authorization: `Bearer ${accessToken}` },
  );
  const json = JSON.stringify(receipt);
  const key = generateEs256Key();
  const privateKey = createPrivateKey({ key: key.privateJwk as never, format: 'jwk' });
  const tx = { to: receipt.transaction.to, data: receipt.transaction.data, value: 0n };
  const tokens = [receipt.transaction.to, receipt.wallet, receipt.wallet];
  const simulated = AbiCoder.defaultAbiCoder().encode(
    ['uint256[]', 'uint256[]'],
    [[1n, 2n, 3n], [151_000n]],
  );
  const db = new Database(':memory:');
  db.exec(
    'CREATE TABLE r (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE, account_id TEXT, wallet TEXT, ' +
      'issued_ms INTEGER, call_key TEXT, block_number INTEGER, execution_state TEXT, jws TEXT); ' +
      'CREATE INDEX a ON r (account_id, issued_ms, seq); CREATE INDEX w ON r (account_id, wallet, issued_ms, seq); ' +
      'CREATE INDEX c ON r (call_key); CREATE INDEX s ON r (execution_state, block_number)',
  );
  const insert = db.prepare('INSERT INTO r VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?)');
  let n = 0;
  const steps: Array<[string, number]> = [
    ['the document to JSON (JSON.stringify)', cpuMicros(2_000, () => JSON.stringify(receipt))],
    [
      'the JWS (ES256, compact-jws.ts)',
      cpuMicros(2_000, () => compactJws(json, { kid: key.kid, typ: 'x' }, privateKey)),
    ],
    ['the call key (SHA-256)', cpuMicros(2_000, () => callKeyOf({ from: receipt.wallet, ...tx }))],
    [
      'the simulation call: calldata, state override, JSON-RPC body',
      cpuMicros(2_000, () =>
        JSON.stringify(walletSimulationCall({ wallet: receipt.wallet, calls: [tx], tokens })),
      ),
    ],
    [
      'its answer decoded, the gas figure',
      cpuMicros(2_000, () => [decodeSimulateResult(simulated), transactionGasOf(tx, 151_000n)]),
    ],
    [
      'the row inserted (SQLite in memory, 5 indexes; the database itself adds its commit)',
      cpuMicros(2_000, () =>
        insert.run(
          `id-${(n += 1)}`,
          'a',
          receipt.wallet,
          n,
          callKeyOf({ from: receipt.wallet, ...tx }),
          1,
          'pending',
          jws,
        ),
      ),
    ],
  ];
  db.close();
  process.stdout.write(
    `\n## The steps a receipt adds, one at a time (this process; the receipt of the bench's swap, JWS ${jws.length} bytes)\n\n` +
      '| step | CPU µs |\n|---|---|\n' +
      steps.map(([name, us]) => `| ${name} | ${us.toFixed(1)} |`).join('\n') +
      `\n| sum | ${steps.reduce((a, [, us]) => a + us, 0).toFixed(1)} |\n`,
  );
}

async function buildCost(): Promise<void> {
  const trees = [tree('with receipts', ROOT), tree('without (base)', baseTree())];
  try {
    for (const t of trees) await startTree(t);
    await stepCosts(trees[0]);
    const runOf = (t: Tree, seconds: number) =>
      run(t.server!.port, t.server!.pid, t.swap!, {
        connections: CONNECTIONS,
        seconds,
        ...(RATE > 0 ? { rate: RATE } : {}),
      });
    for (const t of trees) await runOf(t, 2); // warm-up
    const cpu = new Map<string, number[]>(trees.map((t) => [t.label, []]));
    const rps = new Map<string, number[]>(trees.map((t) => [t.label, []]));
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Both trees under load at the same time: whatever else the machine runs that moment, both
      // pay for it (alternating runs of a few seconds each were 0.8-1.9x apart on a shared VM).
      for (const t of trees) await untilQuiet(t.server!.pid);
      const results = await Promise.all(trees.map((t) => runOf(t, SECONDS)));
      trees.forEach((t, i) => {
        const r = results[i];
        if (r.unexpected > 0) throw new Error(`${t.label}: ${r.unexpected} unexpected answers`);
        cpu.get(t.label)!.push(r.cpuMsPerReq);
        rps.get(t.label)!.push(r.reqPerSec);
      });
      ratios.push(results[0].cpuMsPerReq / results[1].cpuMsPerReq);
      process.stderr.write(`build round ${round + 1}/${ROUNDS} done\n`);
    }
    const ratio = median(ratios);
    process.stdout.write(
      `\n## Build CPU: the swap build of a ready wallet, with the receipt against without, on ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}\n\n` +
        `${ROUNDS} rounds of ${SECONDS} s at ${CONNECTIONS} connections, ${RATE > 0 ? `${RATE} req/s each` : 'as fast as each can'}, both trees at once; ${cpus().length} CPUs, load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(
            ' ',
          )}\n\n| tree | CPU ms/req (median, each round) | req/s (median) |\n|---|---|---|\n` +
        trees
          .map(
            (t) =>
              `| ${t.label} | ${median(cpu.get(t.label)!).toFixed(3)} (${cpu
                .get(t.label)!
                .map((v) => v.toFixed(3))
                .join(', ')}) | ${median(rps.get(t.label)!).toFixed(0)} |`,
          )
          .join('\n') +
        `\n\nwith / without: ${ratio.toFixed(2)}x (rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}); goal <= ${BUILD_TARGET}x: ${ratio <= BUILD_TARGET ? 'ok' : 'OVER TARGET'}\n`,
    );
    if (ratio > BUILD_TARGET) process.exitCode = 1;
  } finally {
    for (const t of trees) await stopTree(t);
  }
}

/** The template row: the receipt of a swap relayed and mined, with its execution. */
async function relayedReceipt(t: Tree): Promise<Record<string, unknown>> {
  const port = t.server!.port;
  const wallet = new Wallet(
    WALLET_KEY,
    new JsonRpcProvider(t.devnet!.rpcUrl, 84532, { staticNetwork: true, cacheTimeout: -1 }),
  );
  const built = await jsonApi(port, 'POST', '/api/v1/defi/swap', t.swap!.body, t.auth);
  const tx = built.transaction as Record<string, string>;
  const signed = await wallet.signTransaction(
    await wallet.populateTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
      gasLimit: BigInt(tx.gas),
    }),
  );
  (wallet.provider as JsonRpcProvider).destroy();
  await jsonApi(port, 'POST', '/api/v1/defi/transactions', { signedTransaction: signed }, t.auth);
  const { accessToken } = await jsonApi(port, 'POST', '/auth/login', {
    email: EMAIL,
    password: PASSWORD,
  });
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const receipt = await jsonApi(
      port,
      'GET',
      `/api/v1/compliance/receipts/${built.receiptId}`,
      undefined,
      { Authorization: `Bearer ${accessToken}` },
    );
    if (receipt.executionJws) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the relayed swap got no execution in 30 s');
}

/** Writes `count` copies of the template over 30 days ending now, in the database itself. */
async function fillReceipts(
  t: Tree,
  template: Record<string, unknown>,
  count: number,
): Promise<{ fromMs: number; toMs: number; accountId: string }> {
  const receipt = template.receipt as { accountId: string; wallet: string };
  const toMs = Date.now();
  const fromMs = toMs - 30 * DAY_MS;
  const step = Math.floor((30 * DAY_MS) / count);
  const execution = JSON.stringify((template.receipt as { execution: unknown }).execution);
  const values = [
    receipt.accountId,
    receipt.wallet,
    template.jws,
    execution,
    template.executionJws,
    fromMs,
    step,
  ];
  const started = Date.now();
  if (process.env.BENCH_DATABASE_URL) {
    const client = new Client({ connectionString: process.env.BENCH_DATABASE_URL });
    await client.connect();
    await client.query(`SET search_path TO "${t.env.DATABASE_SCHEMA}"`);
    for (let done = 0; done < count; done += 100_000) {
      const n = Math.min(100_000, count - done);
      await client.query(
        `INSERT INTO compliance_receipts (id, account_id, wallet, operation, issued_ms, call_key,
           block_number, deadline, jws, execution_state, tx_hash, execution, execution_jws)
         SELECT '00000000-0000-7000-8000-' || lpad(n::text, 12, '0'), $1, $2, 'swap',
           $6::bigint + n::bigint * $7::bigint,
           'bench', 1, 0, $3, 'executed', '0x', $4, $5
         FROM generate_series(${done + 1}, ${done + n}) AS n`,
        values,
      );
    }
    await client.end();
  } else {
    const db = new Database(join(t.dataDir, 'app.sqlite'));
    db.pragma('journal_mode = WAL');
    db.prepare(
      `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${count})
       INSERT INTO compliance_receipts (id, account_id, wallet, operation, issued_ms, call_key,
         block_number, deadline, jws, execution_state, tx_hash, execution, execution_jws)
       SELECT printf('00000000-0000-7000-8000-%012d', n), ?, ?, 'swap', ? + n * ?, 'bench', 1, 0,
         ?, 'executed', '0x', ?, ? FROM s`,
    ).run(
      receipt.accountId,
      receipt.wallet,
      fromMs,
      step,
      template.jws as string,
      execution,
      template.executionJws as string,
    );
    db.close();
  }
  process.stderr.write(
    `wrote ${count} receipts in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return { fromMs, toMs: toMs + DAY_MS, accountId: receipt.accountId };
}

interface ExportRun {
  lines: number;
  bytes: number;
  seconds: number;
  /** The server's CPU (user + system) over the export. */
  cpuSeconds: number;
  /** The server's event loop's time runnable but waiting for a CPU. */
  waitSeconds: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

/**
 * Seconds the process's main thread (the event loop) has spent runnable but waiting for a CPU
 * (the scheduler's run queue: /proc/<pid>/task/<pid>/schedstat, second field): on a shared
 * machine, how much of a run's wall time went to others' work.
 */
function runQueueSeconds(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e9;
}

/** Reads an export as fast as possible, sampling the server's RSS every 50 ms. */
function readExport(t: Tree, from: number, to: number): Promise<ExportRun> {
  const pid = t.server!.pid;
  const rssBeforeMb = memoryMb(pid).rss;
  let peakRssMb = rssBeforeMb;
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, memoryMb(pid).rss)), 50);
  const started = process.hrtime.bigint();
  const cpuBefore = cpuSeconds(pid);
  const waitBefore = runQueueSeconds(pid);
  const query = `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: t.server!.port,
        path: `/api/v1/compliance/receipts/export?${query}`,
        headers: t.auth,
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
        let lines = 0;
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
        });
        res.on('end', () => {
          clearInterval(sampler);
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          const cpu = cpuSeconds(pid) - cpuBefore;
          const waitSeconds = runQueueSeconds(pid) - waitBefore;
          resolve({ lines, bytes, seconds, cpuSeconds: cpu, waitSeconds, rssBeforeMb, peakRssMb });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function exportRate(): Promise<void> {
  const t = tree('export', ROOT);
  try {
    await startTree(t);
    const template = await relayedReceipt(t);
    await t.server!.stop();
    const { fromMs, toMs } = await fillReceipts(t, template, RECEIPTS);
    t.server = await startServer(t);
    const { key } = await jsonApi(
      t.server.port,
      'POST',
      '/api/v1/api-keys',
      { name: 'auditor', scopes: ['receipts:read'] },
      {
        Authorization: `Bearer ${
          (
            await jsonApi(t.server.port, 'POST', '/auth/login', {
              email: EMAIL,
              password: PASSWORD,
            })
          ).accessToken
        }`,
      },
    );
    t.auth = { 'X-API-Key': key };
    const onePercentTo = fromMs + (toMs - DAY_MS - fromMs) / 100;
    await readExport(t, fromMs, onePercentTo); // warm-up
    const small = await readExport(t, fromMs, onePercentTo);
    const month = await readExport(t, fromMs, toMs);
    const row = (name: string, r: ExportRun) =>
      `| ${name} | ${r.lines.toLocaleString('en')} | ${(r.bytes / 1e6).toFixed(0)} MB | ${r.seconds.toFixed(1)} s | ` +
      `${Math.round(r.lines / r.seconds).toLocaleString('en')} | ${((r.cpuSeconds * 1e6) / r.lines).toFixed(1)} | ` +
      `${Math.round(r.lines / r.cpuSeconds).toLocaleString('en')} | ${r.cpuSeconds.toFixed(1)} s | ${r.waitSeconds.toFixed(1)} s | ${r.rssBeforeMb.toFixed(0)} MB | ` +
      `${r.peakRssMb.toFixed(0)} MB (+${(r.peakRssMb - r.rssBeforeMb).toFixed(0)}) |`;
    const rate = month.lines / month.seconds;
    const engine = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite';
    process.stdout.write(
      `\n## Export: GET /api/v1/compliance/receipts/export on ${engine}, ${RECEIPTS.toLocaleString('en')} receipts over 30 days\n\n` +
        `| period | receipts | bytes | time | receipts/s | server CPU µs a receipt | receipts per CPU second | server CPU | event loop waiting for a CPU | server RSS before | peak RSS |\n|---|---|---|---|---|---|---|---|---|---|---|\n` +
        `${row('first 1 %', small)}\n${row('the month', month)}\n\n` +
        `rate ${Math.round(rate).toLocaleString('en')}/s (goal >= ${EXPORT_RATE_TARGET.toLocaleString('en')}: ${rate >= EXPORT_RATE_TARGET ? 'ok' : 'UNDER TARGET'}); ` +
        `peak RSS over before: month +${(month.peakRssMb - month.rssBeforeMb).toFixed(0)} MB, 1 % +${(small.peakRssMb - small.rssBeforeMb).toFixed(0)} MB\n`,
    );
    // The month also holds the receipts of the bench's own builds.
    if (month.lines < RECEIPTS) throw new Error(`exported ${month.lines} of ${RECEIPTS}`);
    if (rate < EXPORT_RATE_TARGET) process.exitCode = 1;
  } finally {
    await stopTree(t);
  }
}

async function main(): Promise<void> {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (ONLY.split('|').includes('build')) await buildCost();
  if (ONLY.split('|').includes('export')) await exportRate();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
