/**
 * `npm run bench:audit` (PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL): issue 47 item 4.
 *
 * One fresh schema holds three accounts' audit trails of 100k, 1M and 10M events (BENCH_SIZES),
 * spread over the last 60 days, written by PostgreSQL with INSERT ... SELECT generate_series: 1 in
 * 10,000 is the rare `account.plan_changed` by the operator, the rest six common types by 20 users
 * and keys. The secondary indexes are dropped for the fill and rebuilt after it with their own
 * definitions (pg_indexes), then ANALYZE. For each account and each filter, BENCH_CALLS (200)
 * sequential GET /api/v1/audit-events over HTTP (auth, quota, rate limit included), each with a
 * fresh random parameter (a random day back, a random cursor or `after` event), p50 / p99 / max;
 * then EXPLAIN (ANALYZE, BUFFERS) of the service's own SQL for one call of each filter on the
 * largest account. BENCH_KEEP=1 keeps the schema (its name is printed); BENCH_SCHEMA=<it> measures
 * it again without a fill. "read" is the service's call alone (no HTTP, auth, quota, rate limit).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getRepositoryToken } from '@nestjs/typeorm';
import request from 'supertest';
import { Client } from 'pg';
import { DataSource, Repository, SelectQueryBuilder } from 'typeorm';
import { AuditEvent } from '../src/audit/audit-event.entity';
import { AuditEventsService } from '../src/audit/audit-events.service';
import { encodeAuditCursor } from '../src/audit/audit-page';
import { createTestApp, TEST_PASSWORD, TestAccount, TestApp } from '../test/helpers/app';
import { login } from '../test/helpers/auth';
import { createTestDatabase, TestDatabase } from '../test/helpers/test-env';

const DAY_MS = 86_400_000;
const SPAN_DAYS = 60;
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const SIZES = (process.env.BENCH_SIZES ?? '100000,1000000,10000000').split(',').map(Number);
const CHUNK = 1_000_000;
const RARE = 'account.plan_changed';
const COMMON = [
  'auth.login_succeeded',
  'api_key.created',
  'api_key.updated',
  'session.activated',
  'wallet.bound',
  'webhook.updated',
];
const ACTORS = 20;
const actorId = (k: number) => `00000000-0000-4000-9000-${String(k).padStart(12, '0')}`;
const eventId = (account: number, g: number) =>
  `00000000-0000-4000-8${String(account).padStart(3, '0')}-${g.toString(16).padStart(12, '0')}`;

/** Events 1..n of account `a` (index `i`), evenly over SPAN_DAYS up to a minute ago, in seq order. */
async function fill(ds: Client, i: number, accountId: string, n: number, endMs: number) {
  const startMs = endMs - SPAN_DAYS * DAY_MS;
  const spanMs = SPAN_DAYS * DAY_MS;
  for (let lo = 1; lo <= n; lo += CHUNK) {
    const hi = Math.min(n, lo + CHUNK - 1);
    await ds.query(
      `INSERT INTO audit_events (id, at, account_id, type, actor_type, actor_id, target_type,
         target_id, ip, user_agent, request_id, data)
       SELECT format('00000000-0000-4000-8%s-%s', lpad('${i}', 3, '0'), lpad(to_hex(g), 12, '0')),
              timestamptz 'epoch' + (${startMs}::bigint + g * ${spanMs}::bigint / ${n}) * interval '1 millisecond',
              $1,
              CASE WHEN g % 10000 = 0 THEN '${RARE}'
                   ELSE ($2::text[])[1 + g % ${COMMON.length}] END,
              CASE WHEN g % 10000 = 0 THEN 'operator' WHEN g % 2 = 0 THEN 'user' ELSE 'api_key' END,
              CASE WHEN g % 10000 = 0 THEN NULL
                   ELSE format('00000000-0000-4000-9000-%s', lpad((g % ${ACTORS})::text, 12, '0')) END,
              'api_key', md5(g::text), '203.0.113.7', 'bench/1.0', 'req-' || g,
              '{"name":"bench","scopes":["defi:swap"]}'::jsonb
       FROM generate_series(${lo}, ${hi}) AS g`,
      [accountId, COMMON],
    );
  }
}

/** Drops the secondary indexes, fills every account, rebuilds them with their own definitions. */
async function fillAll(
  url: string,
  schema: string,
  accounts: Array<{ n: number; accountId: string }>,
  endMs: number,
  out: (line: string) => void,
) {
  // Its own connection: the app's pool cuts statements at 10 s (query_timeout).
  const pg = new Client({ connectionString: url });
  await pg.connect();
  await pg.query(`SET search_path TO "${schema}"`);
  const { rows: indexes } = await pg.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes
     WHERE schemaname = current_schema() AND tablename = 'audit_events'
       AND indexname NOT IN (SELECT conname FROM pg_constraint)`,
  );
  let t0 = performance.now();
  for (const { indexname } of indexes) await pg.query(`DROP INDEX "${indexname}"`);
  for (const [i, a] of accounts.entries()) await fill(pg, i, a.accountId, a.n, endMs);
  const filledS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  for (const { indexdef } of indexes) await pg.query(indexdef);
  await pg.query('VACUUM ANALYZE audit_events');
  const indexedS = (performance.now() - t0) / 1000;
  const {
    rows: [{ rows, size }],
  } = await pg.query<{ rows: string; size: string }>(
    `SELECT COUNT(*)::bigint AS rows, pg_size_pretty(pg_total_relation_size('audit_events')) AS size
     FROM audit_events`,
  );
  await pg.end();
  out(
    `${Number(rows).toLocaleString('en-US')} events (${size} with indexes): filled in ${filledS.toFixed(0)} s, indexes rebuilt + VACUUM ANALYZE in ${indexedS.toFixed(0)} s; schema ${schema}`,
  );
  out(`indexes: ${indexes.map((x) => x.indexname).join(', ')}\n`);
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

type Params = Record<string, string>;

/** Each filter: a fresh query string per call for account index `i` with `n` events. */
function filters(i: number, n: number, endMs: number, seqOf: (g: number) => number) {
  const rnd = (max: number) => 1 + Math.floor(Math.random() * max);
  const day = () => {
    const back = rnd(SPAN_DAYS - 1);
    const from = new Date(endMs - back * DAY_MS);
    return { from: from.toISOString(), to: new Date(from.getTime() + DAY_MS).toISOString() };
  };
  return {
    'first page': (): Params => ({}),
    'cursor (a random page back)': (): Params => ({
      cursor: encodeAuditCursor(String(seqOf(rnd(n)))),
    }),
    'after (a random event, ascending)': (): Params => ({ after: eventId(i, rnd(n)) }),
    'type, rare (1 in 10,000)': (): Params => ({ type: RARE }),
    'type, common': (): Params => ({ type: COMMON[rnd(COMMON.length) - 1] }),
    'actor (one of 20 users/keys)': (): Params => ({ actor: actorId(rnd(ACTORS) - 1) }),
    'actor=operator (rare)': (): Params => ({ actor: 'operator' }),
    'from/to (one day, 1-59 days back)': (): Params => day(),
    'from/to + rare type': (): Params => ({ ...day(), type: RARE }),
    'after + rare type': (): Params => ({ after: eventId(i, rnd(n)), type: RARE }),
    'cursor + actor': (): Params => ({
      cursor: encodeAuditCursor(String(seqOf(rnd(n)))),
      actor: actorId(rnd(ACTORS) - 1),
    }),
  };
}

/** Records the SQL of the service's next listing (for EXPLAIN) without changing it. */
function captureSql(repo: Repository<AuditEvent>) {
  const original = repo.createQueryBuilder.bind(repo);
  let last: [string, unknown[]] | undefined;
  repo.createQueryBuilder = ((alias?: string) => {
    const qb = original(alias) as SelectQueryBuilder<AuditEvent>;
    const getMany = qb.getMany.bind(qb);
    qb.getMany = () => {
      last = qb.getQueryAndParameters() as [string, unknown[]];
      return getMany();
    };
    return qb;
  }) as typeof repo.createQueryBuilder;
  return () => last!;
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL database');
  process.env.TEST_DATABASE_URL = url;
  process.env.DEVNET_PORT ??= '0';
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const reuse = process.env.BENCH_SCHEMA;
  const db = reuse
    ? {
        env: {
          DATA_DIR: mkdtempSync(join(tmpdir(), 'cgk-bench-')),
          DATABASE_URL: url,
          DATABASE_SCHEMA: reuse,
        },
        drop: async () => undefined,
      }
    : await createTestDatabase('postgres');
  const t: TestApp = await createTestApp({ db: db as TestDatabase });
  try {
    const ds = t.app.get(DataSource);
    let endMs = Date.now() - 60_000;
    const accounts: Array<TestAccount & { n: number }> = [];
    if (reuse) {
      // BENCH_SCHEMA: the trails a previous run left (BENCH_KEEP=1), measured again without a fill.
      const found = (await ds.query(
        `SELECT account_id AS "accountId", MAX(at) AS "end", COUNT(*)::int AS n,
                (SELECT email FROM users u WHERE u.account_id = e.account_id LIMIT 1) AS email,
                (SELECT id FROM users u WHERE u.account_id = e.account_id LIMIT 1) AS "userId"
         FROM audit_events e WHERE user_agent = 'bench/1.0' GROUP BY account_id ORDER BY n`,
      )) as Array<TestAccount & { n: number; end: Date }>;
      for (const a of found) accounts.push({ ...a, password: TEST_PASSWORD });
      endMs = new Date(found[0].end).getTime();
      out(`schema ${reuse}: ${found.map((a) => a.n.toLocaleString('en-US')).join(', ')} events\n`);
    } else {
      for (const n of SIZES)
        accounts.push({ n, ...(await t.createAccount({ plan: 'enterprise' })) });
      await fillAll(url, db.env.DATABASE_SCHEMA, accounts, endMs, out);
    }

    const repo = t.app.get<Repository<AuditEvent>>(getRepositoryToken(AuditEvent));
    const lastSql = captureSql(repo);
    const service = t.app.get(AuditEventsService);
    out(
      '| events of the account | filter | HTTP p50 ms | HTTP p99 ms | HTTP max ms | read p50 ms | read p99 ms | items (last call) |',
    );
    out('|---|---|---|---|---|---|---|---|');
    const plans: string[] = [];
    for (const [i, a] of accounts.entries()) {
      const [{ min }] = (await ds.query(
        'SELECT MIN(seq)::bigint AS min FROM audit_events WHERE account_id = $1',
        [a.accountId],
      )) as [{ min: string }];
      const seqOf = (g: number) => Number(min) + g - 1;
      const token = await login(t, a);
      const get = (query: Params) =>
        request(t.server)
          .get('/api/v1/audit-events')
          .query(query)
          .set('Authorization', `Bearer ${token}`);
      for (const [name, params] of Object.entries(filters(i, a.n, endMs, seqOf))) {
        await get(params()); // warm-up
        const ms: number[] = [];
        let items = 0;
        for (let c = 0; c < CALLS; c++) {
          const query = params();
          const started = performance.now();
          const res = await get(query);
          ms.push(performance.now() - started);
          if (res.status !== 200)
            throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
          items = res.body.items.length;
        }
        // The read alone: the service's call, without HTTP, auth, quota and rate limit.
        const readMs: number[] = [];
        for (let c = 0; c < CALLS; c++) {
          const query = params();
          const filter = {
            ...query,
            from: query.from ? new Date(query.from) : undefined,
            to: query.to ? new Date(query.to) : undefined,
          };
          const started = performance.now();
          await service.listForAccount(a.accountId, filter);
          readMs.push(performance.now() - started);
        }
        ms.sort((x, y) => x - y);
        readMs.sort((x, y) => x - y);
        out(
          `| ${a.n.toLocaleString('en-US')} | ${name} | ${quantile(ms, 0.5).toFixed(1)} | ${quantile(ms, 0.99).toFixed(1)} | ${ms[ms.length - 1].toFixed(1)} | ${quantile(readMs, 0.5).toFixed(1)} | ${quantile(readMs, 0.99).toFixed(1)} | ${items} |`,
        );
        if (i === accounts.length - 1) {
          const [sql, parameters] = lastSql();
          const plan = (await ds.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, parameters)) as Array<{
            'QUERY PLAN': string;
          }>;
          plans.push(`-- ${name}\n${plan.map((p) => p['QUERY PLAN']).join('\n')}`);
        }
      }
    }
    out(`\nEXPLAIN (ANALYZE, BUFFERS), account of ${accounts[accounts.length - 1].n} events:\n`);
    out(plans.join('\n\n'));
  } finally {
    await t.close();
    if (process.env.BENCH_KEEP !== '1') await db.drop();
  }
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
