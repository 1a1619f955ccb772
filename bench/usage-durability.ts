/**
 * `npm run bench:usage-durability` (issue 34, item 5): what keeping usage rows through a SIGKILL
 * would cost, measured before deciding. On PostgreSQL + Redis (BENCH_DATABASE_URL/BENCH_REDIS_URL
 * or TEST_DATABASE_URL/TEST_REDIS_URL), the app in-process, CPU of this process per usage row
 * (process.cpuUsage: the service's side; PostgreSQL's and Redis's servers are other processes):
 * - the recorder as it is: rows written in 200-row batches (a 1 s flush interval at >= 200 req/s);
 * - a shorter flush interval at 200 req/s: batches of 50 (250 ms) and 20 (100 ms);
 * - write-through to Redis: one RPUSH per row on the request path (awaited, as a row must be in
 *   Redis before the answer is "safe"), then a drain (LPOP 200) into the same 200-row batch.
 * Alternating rounds, median of BENCH_ROUNDS (5), BENCH_RECORD_ROWS (4,000) rows a round.
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { UsageRecord } from '../src/usage/usage-record.entity';
import { UsageRecorder } from '../src/usage/usage-recorder.service';
import { createTestApp } from '../test/helpers/app';
import { createTestDatabase } from '../test/helpers/test-env';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROWS = Number(process.env.BENCH_RECORD_ROWS ?? 4_000);

function rows(accountId: string, n: number): UsageRecord[] {
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => ({
    id: uuidv7(),
    accountId,
    authMethod: 'api_key',
    apiKeyId: randomUUID(),
    userId: null,
    method: 'POST',
    route: '/api/v1/defi/swap',
    statusCode: 200,
    code: null,
    latencyMs: i % 300,
    createdAt: new Date(now - (n - i) * 5),
  }));
}

/** µs of this process's CPU per row while `work` runs. */
async function cpuPerRow(n: number, work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

async function main(): Promise<void> {
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
  if (!pgUrl || !redisUrl)
    throw new Error(
      'Set BENCH_DATABASE_URL and BENCH_REDIS_URL (or TEST_DATABASE_URL and TEST_REDIS_URL)',
    );
  process.env.TEST_DATABASE_URL = pgUrl;
  process.env.DEVNET_PORT ??= '0';
  const db = await createTestDatabase('postgres');
  const t = await createTestApp({ db });
  const redis = new Redis(redisUrl, { enableOfflineQueue: true });
  const list = `bench:usage-durability:${randomUUID()}`;
  try {
    const ds = t.app.get(DataSource);
    const recorder = t.app.get(UsageRecorder);
    const { accountId } = await t.createAccount();
    const write = (batch: UsageRecord[]) => ds.transaction((m) => recorder.writeBatch(m, batch));
    const inBatches = (size: number) => async () => {
      const all = rows(accountId, ROWS);
      for (let i = 0; i < all.length; i += size) await write(all.slice(i, i + size));
    };
    const variants: Record<string, () => Promise<void>> = {
      'batches of 200 (now: 1 s interval at >= 200 req/s)': inBatches(200),
      'batches of 50 (250 ms interval at 200 req/s)': inBatches(50),
      'batches of 20 (100 ms interval at 200 req/s)': inBatches(20),
      'Redis write-through (RPUSH a row, drain 200 at a time)': async () => {
        for (const row of rows(accountId, ROWS)) await redis.rpush(list, JSON.stringify(row));
        for (;;) {
          const popped = await redis.lpop(list, 200);
          if (!popped || popped.length === 0) break;
          await write(
            popped.map((text) => {
              const row = JSON.parse(text) as UsageRecord;
              return { ...row, createdAt: new Date(row.createdAt) };
            }),
          );
        }
      },
    };
    const names = Object.keys(variants);
    for (const name of names) await variants[name](); // warm-up
    const figures = Object.fromEntries(names.map((name) => [name, [] as number[]]));
    for (let r = 0; r < ROUNDS; r += 1)
      for (const name of names) figures[name].push(await cpuPerRow(ROWS, variants[name]));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const base = median(figures[names[0]]);
    process.stdout.write(
      `PostgreSQL + Redis, ${ROWS} rows a round, median of ${ROUNDS} rounds (CPU of the app's process)\n\n` +
        '| variant | CPU µs per row | extra µs per request vs now |\n|---|---|---|\n' +
        names
          .map((name) => {
            const m = median(figures[name]);
            return `| ${name} | ${m.toFixed(1)} | ${(m - base).toFixed(1)} |`;
          })
          .join('\n') +
        '\n',
    );
  } finally {
    await redis.del(list);
    redis.disconnect();
    await t.close();
    await db.drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
