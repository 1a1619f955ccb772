import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { USAGE_FLUSH_INTERVAL_MS } from '../../src/usage/usage-recorder.service';
import { uniqueRedisPrefix } from '../helpers/auth';
import { BuiltAppProcess, startBuiltApp } from '../helpers/built-app-process';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';
import { DelayProxy } from '../helpers/delay-proxy';
import { Haproxy, HaproxyServerStat, startHaproxy } from '../helpers/haproxy';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';
import { pollUntil } from '../helpers/wait';
import { requireEnv } from './reliability-env';

const ROOT = join(__dirname, '..', '..');
const INSTANCES = 3;
/** Longer than two health-check intervals of deploy/haproxy.cfg (inter 2s): every replica is probed while the chain is slow. */
const SLOW_CHAIN_MS = 5_000;
/** Above CHAIN_HEALTH_TIMEOUT_MS (1 s) and the CHAIN_TIMEOUT_MS given below: the chain is too slow for both. */
const CHAIN_DELAY_MS = 1_500;
/**
 * The documented bound of a SIGKILL (docs/operators/running-and-scaling.md "Replicas"): the rows of the requests the
 * killed replica answered in its last flush interval. The margin covers the flush's own
 * transaction and a loaded machine's timer lag.
 */
const LOSS_WINDOW_MS = USAGE_FLUSH_INTERVAL_MS + 500;
/** Client connections of the SIGKILL load. */
const CONNECTIONS = 12;

const execFileAsync = promisify(execFile);

type TestAccount = { accountId: string; token: string };
type Answer = { status: number; body: Record<string, unknown>; at: number };

async function call(
  url: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<Answer> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: res.status, body, at: Date.now() };
}

/** `count` requests, `concurrency` at a time; the statuses in completion order. */
async function burst(count: number, concurrency: number, send: () => Promise<Answer>) {
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        answers.push(await send().catch(() => ({ status: 0, body: {}, at: Date.now() })));
      }
    }),
  );
  return answers;
}

const tally = (answers: Answer[]) =>
  answers.reduce<Record<number, number>>(
    (t, a) => ({ ...t, [a.status]: (t[a.status] ?? 0) + 1 }),
    {},
  );

/**
 * Issue 34: three built replicas on one PostgreSQL schema, one Redis and one devnet, behind
 * HAProxy configured as the operators' docs show (deploy/haproxy.cfg). What is shared holds across
 * replicas (the per-minute limit, the monthly quota, one-time SIWE nonces); a slow chain degrades
 * readiness without failing it, so the balancer keeps every replica; a SIGKILL under load loses no
 * more usage rows than documented.
 */
describe(`${INSTANCES} replicas behind HAProxy`, () => {
  const pgUrl = requireEnv('TEST_DATABASE_URL');
  const redisUrl = requireEnv('TEST_REDIS_URL');
  let chain: ComplianceDevnet;
  let slowChain: DelayProxy;
  let db: TestDatabase;
  let replicas: BuiltAppProcess[] = [];
  let balancer: Haproxy;
  let env: Record<string, string>;
  let lb: string;

  /** The operator's CLI on the shared database (it boots the app's modules: ~2-5 s a call). */
  const cli = async (...args: string[]) => {
    const { stdout } = await execFileAsync(process.execPath, ['dist/cli/main.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'cgk-cli-')) },
    });
    return JSON.parse(stdout) as Record<string, string>;
  };
  /** An account with the given CLI limits, logged in through the balancer. */
  const accountWith = async (name: string, limit?: string[]): Promise<TestAccount> => {
    const email = `${name}@example.com`;
    const password = `${name} password 1`;
    const { accountId } = await cli(
      'create-account',
      '--name',
      name,
      '--email',
      email,
      '--password',
      password,
    );
    if (limit) await cli(...limit, '--email', email);
    const login = await call(`${lb}/auth/login`, { method: 'POST', body: { email, password } });
    if (login.status !== 200) {
      const ready = await call(`http://127.0.0.1:${replicas[0].port}/health/ready`);
      throw new Error(
        `login: ${JSON.stringify(login.body)}\nreadiness of replica 1: ${ready.status} ${JSON.stringify(ready.body)}\n${balancer.output().slice(-3000)}`,
      );
    }
    return { accountId, token: login.body.accessToken as string };
  };
  let limited: TestAccount;
  let quota: TestAccount;
  let busy: TestAccount;
  let load: TestAccount;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build/build-if-changed.cjs'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    chain = await startComplianceDevnet();
    slowChain = await new DelayProxy(Number(new URL(chain.rpcUrl).port)).start();
    db = await createTestDatabase('postgres');
    // What every replica shares (docs/operators/running-and-scaling.md "Replicas"); DATA_DIR is each replica's own.
    env = {
      ...db.env,
      CHAIN_RPC_URL: `http://127.0.0.1:${slowChain.port}`,
      CHAIN_NETWORK: 'devnet',
      CHAIN_TIMEOUT_MS: '1000',
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: uniqueRedisPrefix('replicas'),
      JWT_SECRET: 'replicas-share-this-secret-of-at-least-32-characters',
      TRUST_PROXY: 'loopback',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
      SEED_DEMO_ACCOUNT: 'false',
    };
    // Started together on an empty schema, as an orchestrator starts them.
    replicas = await Promise.all(
      Array.from({ length: INSTANCES }, () =>
        startBuiltApp({ ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'cgk-replica-')) }),
      ),
    );
    balancer = await startHaproxy(replicas.map((r) => r.port));
    lb = balancer.url;
    [limited, quota, busy, load] = await Promise.all([
      accountWith('limited', ['set-rate-limit', '--per-minute', '40']),
      accountWith('quota', ['set-quota', '--per-month', '30']),
      accountWith('busy', ['set-rate-limit', '--per-minute', '1000000']),
      // Its usage rows are counted after the SIGKILL: no other request uses it.
      accountWith('load', ['set-rate-limit', '--per-minute', '1000000']),
    ]);
  }, 120_000);

  afterAll(async () => {
    for (const replica of replicas) replica.kill();
    await balancer?.stop();
    await slowChain?.close();
    await db?.drop();
    await chain?.close();
  });

  it('three replicas started together on an empty schema log no error', () => {
    for (const replica of replicas) {
      const errors = replica
        .output()
        .split('\n')
        .filter((line) => /"level":(50|60)\b/.test(line));
      expect(errors).toEqual([]);
    }
  });

  it('holds the per-minute limit and the monthly quota across replicas', async () => {
    const rateAnswers = await burst(120, 12, () =>
      call(`${lb}/api/v1/defi/config`, { token: limited.token }),
    );
    expect(tally(rateAnswers)).toEqual({ 200: 40, 429: 80 });

    const quotaAnswers = await burst(90, 12, () =>
      call(`${lb}/api/v1/defi/config`, { token: quota.token }),
    );
    expect(tally(quotaAnswers)).toEqual({ 200: 30, 402: 60 });
    expect(new Set(quotaAnswers.filter((a) => a.status === 402).map((a) => a.body.code))).toEqual(
      new Set(['QUOTA_EXCEEDED']),
    );
  }, 60_000);

  it('a SIWE nonce issued by one replica is spent once, whichever replica sees it', async () => {
    const { token } = busy;
    const wallet = chain.wallets[1];
    const [a, b, c] = replicas.map((r) => `http://127.0.0.1:${r.port}`);
    const issued = await call(`${a}/onboarding/nonce?walletAddress=${wallet.address}`, { token });
    expect(issued.status).toBe(200);
    const message = issued.body.message as string;
    const body = {
      walletAddress: wallet.address,
      message,
      signature: await wallet.signMessage(message),
    };
    const first = await call(`${b}/onboarding/register`, { method: 'POST', token, body });
    expect(first.status).toBe(200);
    const replay = await call(`${c}/onboarding/register`, { method: 'POST', token, body });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({
      code: 'SIWE_INVALID',
      details: [{ reason: 'SIWE_NONCE' }],
    });
  }, 30_000);

  it('keeps every replica in the balancer while the chain is slow: readiness 200 degraded, non-chain endpoints 200', async () => {
    const { token } = busy;
    const config = await call(`${lb}/api/v1/defi/config`, { token });
    expect(config.status).toBe(200);
    const tokens = config.body.tokens as Array<{ symbol: string; address: string }>;
    const address = (symbol: string) => tokens.find((t) => t.symbol === symbol)!.address;
    const quoteBody = {
      tokenIn: address('WETH'),
      tokenOut: address('tUSDC'),
      amount: '1000000000000000',
    };

    const before = await balancer.stats();
    slowChain.delayMs = CHAIN_DELAY_MS;
    const readiness: Answer[] = [];
    const nonChain: Answer[] = [];
    const chainCalls: Answer[] = [];
    const until = Date.now() + SLOW_CHAIN_MS;
    try {
      await Promise.all([
        (async () => {
          while (Date.now() < until)
            readiness.push(
              ...(await Promise.all(
                replicas.map((r) => call(`http://127.0.0.1:${r.port}/health/ready`)),
              )),
            );
        })(),
        ...Array.from({ length: 4 }, async () => {
          while (Date.now() < until) {
            nonChain.push(await call(`${lb}/api/v1/defi/config`, { token }));
            nonChain.push(await call(`${lb}/api/v1/usage/stats`, { token }));
          }
        }),
        (async () => {
          while (Date.now() < until)
            chainCalls.push(
              await call(`${lb}/api/v1/defi/quote`, { method: 'POST', token, body: quoteBody }),
            );
        })(),
      ]);
    } finally {
      slowChain.delayMs = 0;
    }
    const after = await balancer.stats();
    process.stdout.write(
      `slow chain (${CHAIN_DELAY_MS} ms) for ${SLOW_CHAIN_MS} ms: readiness ${JSON.stringify(tally(readiness))}, ` +
        `non-chain ${JSON.stringify(tally(nonChain))}, chain ${JSON.stringify(tally(chainCalls))}; ` +
        `HAProxy ${after.map((s) => `${s.name} ${s.status} ${s.checkStatus} chkfail ${s.checkFailures}`).join(', ')}\n`,
    );

    expect(readiness.filter((a) => a.status !== 200)).toEqual([]);
    expect(readiness.some((a) => JSON.stringify(a.body).includes('degraded'))).toBe(true);
    expect(nonChain.length).toBeGreaterThan(0);
    expect(nonChain.filter((a) => a.status !== 200)).toEqual([]);
    expect(chainCalls.length).toBeGreaterThan(0);
    expect(chainCalls.filter((a) => a.status !== 503).map((a) => a.body)).toEqual([]);
    const failures = (list: HaproxyServerStat[]) =>
      list.map((s) => [s.name, s.checkFailures, s.downTransitions]);
    expect(failures(after)).toEqual(failures(before));
    expect(after.map((s) => s.status)).toEqual(replicas.map(() => 'UP'));
  }, 60_000);

  it('a replica SIGKILLed under load loses at most the usage rows of its last flush interval', async () => {
    const { accountId, token } = load;
    const answers: Answer[] = [];
    let stop = false;
    const running = Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (!stop)
          answers.push(
            await call(`${lb}/api/v1/defi/config`, { token }).catch(() => ({
              status: 0,
              body: {},
              at: Date.now(),
            })),
          );
      }),
    );
    const answered = (n: number) =>
      pollUntil(
        `${n} answers under load`,
        () => answers.length,
        (count) => count >= n,
        {
          timeoutMs: 20_000,
        },
      );
    await answered(300);
    const victim = replicas[INSTANCES - 1];
    victim.kill();
    const killedAt = Date.now();
    await answered(answers.length + 300);
    stop = true;
    await running;

    // The survivors drain on SIGTERM: every row they queued is written before they exit.
    for (const replica of replicas.slice(0, -1)) await replica.stop();
    replicas = [];
    const rows = await usageRows(pgUrl, db.env.DATABASE_SCHEMA, accountId);
    const ok = answers.filter((a) => a.status === 200);
    const lost = ok.length - rows;
    const inLossWindow = ok.filter(
      (a) => a.at > killedAt - LOSS_WINDOW_MS && a.at <= killedAt + 50,
    );
    process.stdout.write(
      `SIGKILL under load: ${JSON.stringify(tally(answers))} answers, ${rows} usage rows, ${lost} lost; ` +
        `${inLossWindow.length} answers (all replicas) in the ${LOSS_WINDOW_MS} ms before the kill\n`,
    );
    expect(lost).toBeGreaterThanOrEqual(0);
    expect(lost).toBeLessThanOrEqual(inLossWindow.length);
    // Only requests on their way to the killed replica fail (HAProxy answers 502 or closes the
    // connection): at most one per client connection, and one more for a connection HAProxy
    // reused to it before the health checks took it out.
    expect(answers.filter((a) => a.status !== 200).length).toBeLessThanOrEqual(2 * CONNECTIONS);
  }, 60_000);
});

async function usageRows(url: string, schema: string, accountId: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT count(*)::int AS n FROM "${schema}".usage_records WHERE account_id = $1`,
      [accountId],
    );
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}
