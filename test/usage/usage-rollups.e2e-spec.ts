import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { insertUsageRecords } from '../../src/usage/insert-usage-records';
import { UsageRecord } from '../../src/usage/usage-record.entity';
import { UsageRecorder } from '../../src/usage/usage-recorder.service';
import type { UsageBreakdown } from '../../src/usage/rollups/fold-stats';
import { UsageRollup } from '../../src/usage/rollups/usage-rollup.entity';
import { UsageStatsService } from '../../src/usage/usage-stats.service';
import { AuthProbeController } from '../auth/auth-probe.controller';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { pollUntil } from '../helpers/wait';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The stats of a range computed the old way: straight over the raw rows, in the test. */
function rawStats(rows: UsageRecord[], from: number, to: number, keyId?: string) {
  const picked = rows.filter(
    (r) =>
      r.createdAt.getTime() >= from &&
      r.createdAt.getTime() < to &&
      (keyId === undefined || r.apiKeyId === keyId),
  );
  const counts = (rs: UsageRecord[]) => ({
    requests: rs.length,
    succeeded: rs.filter((r) => r.statusCode < 400).length,
    failed: rs.filter((r) => r.statusCode >= 400).length,
    rateLimited: rs.filter((r) => r.statusCode === 429).length,
  });
  const groupBy = (key: (r: UsageRecord) => string) => {
    const groups = new Map<string, UsageRecord[]>();
    for (const r of picked) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
    return [...groups.values()];
  };
  const byCode: Record<string, number> = {};
  for (const r of picked) if (r.code) byCode[r.code] = (byCode[r.code] ?? 0) + 1;
  return {
    totals: counts(picked),
    byEndpoint: groupBy((r) => `${r.method} ${r.route}`)
      .map((rs) => ({
        method: rs[0].method,
        route: rs[0].route,
        ...counts(rs),
        avgLatencyMs: Math.round(rs.reduce((s, r) => s + r.latencyMs, 0) / rs.length),
        maxLatencyMs: Math.max(...rs.map((r) => r.latencyMs)),
      }))
      .sort((a, b) => a.route.localeCompare(b.route) || a.method.localeCompare(b.method)),
    byCode,
    byKey: groupBy((r) => `${r.authMethod}|${r.apiKeyId}|${r.userId}`)
      .map((rs) => ({
        authMethod: rs[0].authMethod,
        keyId: rs[0].apiKeyId,
        userId: rs[0].userId,
        ...counts(rs),
        lastRequestAt: new Date(Math.max(...rs.map((r) => r.createdAt.getTime()))).toISOString(),
      }))
      .sort((a, b) => `${a.keyId}${a.userId}`.localeCompare(`${b.keyId}${b.userId}`)),
  };
}

function comparable(stats: UsageBreakdown) {
  return {
    ...stats,
    byEndpoint: [...stats.byEndpoint].sort(
      (a, b) => a.route.localeCompare(b.route) || a.method.localeCompare(b.method),
    ),
    byKey: [...stats.byKey].sort((a, b) =>
      `${a.keyId}${a.userId}`.localeCompare(`${b.keyId}${b.userId}`),
    ),
  };
}

describe('Usage roll-ups (UsageStatsService reads only roll-ups)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ extra: { controllers: [AuthProbeController] } });
  });
  afterAll(() => t.close());

  it('gives the same stats as the raw rows, for live traffic and for 3 days of history', async () => {
    const account = await t.createAccount({ plan: 'pro' });
    const token = await login(t, account);
    const key = await createApiKey(t, token, ['defi:swap', 'defi:preflight']);
    const narrow = await createApiKey(t, token, ['usage:read']);
    // Live traffic through the whole pipeline: 2xx, 403 (scope), 500, several keys and a user.
    for (let i = 0; i < 4; i++)
      await request(t.server)
        .get(`/api/v1/test-protected/preflight/0x${i}`)
        .set('X-API-Key', key.key);
    await request(t.server)
      .get('/api/v1/test-protected/fail')
      .set('X-API-Key', key.key)
      .expect(500);
    await request(t.server)
      .post('/api/v1/test-protected/swap')
      .set('X-API-Key', narrow.key)
      .send({ label: 'a', count: 1 })
      .expect(403);
    await request(t.server)
      .get('/api/v1/test-protected/any')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    // History through the same writer: 600 rows over 3 days with varied routes, codes, latencies.
    const recorder = t.app.get(UsageRecorder);
    const now = Date.now();
    const routes = ['/api/v1/defi/swap', '/api/v1/defi/quote', '/api/v1/usage/stats'];
    const statuses: Array<[number, string | null]> = [
      [200, null],
      [201, null],
      [429, 'RATE_LIMIT_EXCEEDED'],
      [412, 'SESSION_NOT_ACTIVE'],
    ];
    for (let i = 0; i < 600; i++) {
      const [statusCode, code] = statuses[(i * 7) % statuses.length];
      recorder.record({
        id: randomUUID(),
        accountId: account.accountId,
        authMethod: i % 5 === 0 ? 'jwt' : 'api_key',
        apiKeyId: i % 5 === 0 ? null : i % 2 ? key.id : narrow.id,
        userId: i % 5 === 0 ? account.userId : null,
        method: i % 3 === 0 ? 'GET' : 'POST',
        route: routes[i % routes.length],
        statusCode,
        code,
        latencyMs: (i * 37) % 250,
        createdAt: new Date(now - ((i * 7_919_311) % (3 * 24 * HOUR))),
      });
    }
    // Another account's traffic in the same buckets must not show up.
    const other = await t.createAccount();
    recorder.record({
      id: randomUUID(),
      accountId: other.accountId,
      authMethod: 'jwt',
      apiKeyId: null,
      userId: other.userId,
      method: 'GET',
      route: routes[0],
      statusCode: 200,
      code: null,
      latencyMs: 1,
      createdAt: new Date(now - HOUR),
    });
    await recorder.flush();
    const raw = await t.app
      .get(DataSource)
      .getRepository(UsageRecord)
      .findBy({ accountId: account.accountId });
    expect(raw.length).toBe(600 + 7 + 2); // history, the probe requests, the two key creations

    const stats = t.app.get(UsageStatsService);
    const minuteFloor = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;
    const minuteCeil = (ms: number) => Math.ceil(ms / MINUTE) * MINUTE;
    const ranges: Array<{ from: Date; to: Date; keyId?: string }> = [
      // Ragged edges on both sides: minute, then hour buckets at the edges, day buckets between.
      { from: new Date(now - 50 * HOUR - 17 * MINUTE), to: new Date(now - 3 * HOUR + 43 * MINUTE) },
      { from: new Date(now - 4 * 24 * HOUR), to: new Date(now + MINUTE), keyId: key.id },
      // Inside one hour: minute buckets only.
      { from: new Date(now - 40 * MINUTE), to: new Date(now + MINUTE) },
      { from: new Date(now - 4 * 24 * HOUR), to: new Date(now + MINUTE) },
    ];
    for (const range of ranges) {
      const fromRollups = await stats.statsFor({ accountId: account.accountId, ...range });
      const from = minuteFloor(range.from.getTime());
      const to = minuteCeil(range.to.getTime());
      expect(fromRollups.from).toBe(new Date(from).toISOString());
      expect(fromRollups.to).toBe(new Date(to).toISOString());
      const expected = rawStats(raw, from, to, range.keyId);
      expect(expected.totals.requests).toBeGreaterThan(0);
      const { from: _f, to: _t, ...breakdown } = fromRollups;
      expect(comparable(breakdown)).toEqual(expected);
    }
    // And the endpoint answers from the same roll-ups (default range: the last 30 days): every
    // request recorded before it, not itself (recorded after it answers).
    const res = await request(t.server)
      .get('/api/v1/usage/stats')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(res.body.totals.requests).toBe(raw.length);
    // Once the recorder has written the stats request too, each bucket size holds every request.
    const all = raw.length + 1;
    await pollUntil(
      'the stats request recorded',
      () =>
        t.app.get(DataSource).getRepository(UsageRecord).countBy({ accountId: account.accountId }),
      (count) => count === all,
    );
    // Three bucket sizes, each holding every request once.
    const sums = await t.app
      .get(DataSource)
      .getRepository(UsageRollup)
      .createQueryBuilder('r')
      .select('r.spanMinutes', 'span')
      .addSelect('SUM(r.requests)', 'requests')
      .where('r.accountId = :id', { id: account.accountId })
      .groupBy('r.spanMinutes')
      .orderBy('r.spanMinutes')
      .getRawMany<{ span: unknown; requests: unknown }>();
    expect(sums.map((s) => [Number(s.span), Number(s.requests)])).toEqual([
      [1, all],
      [60, all],
      [1440, all],
    ]);
  });

  it('writes raw rows that read back identical to TypeORM repository.insert, > 500 rows and odd values included', async () => {
    const ds = t.app.get(DataSource);
    const accountId = randomUUID();
    const sample = (i: number): Omit<UsageRecord, 'id'> => ({
      accountId,
      authMethod: i % 2 ? 'jwt' : 'api_key',
      apiKeyId: i % 2 ? null : randomUUID(),
      userId: i % 3 ? null : randomUUID(),
      method: ['GET', 'POST', 'DELETE'][i % 3],
      // Quotes, backslashes, non-ASCII and an SQL-looking route must arrive as written.
      route: [`/api/v1/it's/\\x/${i}`, '/api/v1/ünïcødé/€/😀', "'); DROP TABLE usage_records; --"][
        i % 3
      ],
      statusCode: [200, 201, 429, 500][i % 4],
      code: i % 4 < 2 ? null : `CODE_${i % 7}`,
      latencyMs: [0, 1, 2_147_483_647][i % 3],
      // Millisecond precision, a leap day, the epoch, the far future.
      createdAt: new Date(
        [Date.UTC(2028, 1, 29, 23, 59, 59, 999), 0, Date.UTC(2999, 11, 31), Date.now() - i * 7][
          i % 4
        ],
      ),
    });
    const count = 1_203; // three chunks of the hand-built INSERT
    const samples = Array.from({ length: count }, (_, i) => sample(i));
    const lean = samples.map((row) => ({ id: randomUUID(), ...row }));
    const library = samples.map((row) => ({ id: randomUUID(), ...row }));
    await insertUsageRecords(ds.manager, lean);
    await ds.getRepository(UsageRecord).insert(library);
    // Stored values (raw columns, no hydration) and entities read back, in the order written.
    const stored = async (ids: string[]) => {
      const rows = (await ds
        .getRepository(UsageRecord)
        .createQueryBuilder('r')
        .select([
          'r.account_id AS account_id',
          'r.auth_method AS auth_method',
          'r.api_key_id AS api_key_id',
          'r.user_id AS user_id',
          'r.method AS method',
          'r.route AS route',
          'r.status_code AS status_code',
          'r.code AS code',
          'r.latency_ms AS latency_ms',
          'r.created_at AS created_at',
          'r.id AS id',
        ])
        .where('r.id IN (:...ids)', { ids })
        .getRawMany()) as Array<Record<string, unknown>>;
      const byId = new Map(rows.map(({ id, ...row }) => [id, row]));
      return ids.map((id) => byId.get(id));
    };
    const entities = async (ids: string[]) => {
      const rows = await ds.getRepository(UsageRecord).findBy({ accountId });
      const byId = new Map(rows.map(({ id, ...row }) => [id, row]));
      return ids.map((id) => byId.get(id));
    };
    const leanIds = lean.map((r) => r.id);
    const libraryIds = library.map((r) => r.id);
    const leanStored = await stored(leanIds);
    expect(leanStored.every(Boolean)).toBe(true);
    expect(leanStored).toEqual(await stored(libraryIds));
    const leanEntities = await entities(leanIds);
    expect(leanEntities).toEqual(await entities(libraryIds));
    expect(leanEntities).toEqual(lean.map(({ id: _id, ...row }) => row));
  });

  it('writes a batch and its roll-ups in one transaction: a failing batch leaves neither', async () => {
    const ds = t.app.get(DataSource);
    const recorder = t.app.get(UsageRecorder);
    const accountId = randomUUID();
    const row = (id: string): UsageRecord => ({
      id,
      accountId,
      authMethod: 'jwt',
      apiKeyId: null,
      userId: accountId,
      method: 'GET',
      route: '/api/v1/defi/config',
      statusCode: 200,
      code: null,
      latencyMs: 5,
      createdAt: new Date(),
    });
    const first = row(randomUUID());
    await ds.transaction((m) => recorder.writeBatch(m, [first]));
    const rollups = () =>
      ds.getRepository(UsageRollup).find({ where: { accountId }, order: { spanMinutes: 'ASC' } });
    const before = await rollups();
    expect(before.map((r) => [r.spanMinutes, r.requests])).toEqual([
      [1, 1],
      [60, 1],
      [1440, 1],
    ]);
    // The second batch repeats the first row's id: its raw INSERT fails, so no delta may stay.
    await expect(
      ds.transaction((m) => recorder.writeBatch(m, [row(randomUUID()), row(first.id)])),
    ).rejects.toThrow();
    expect(await rollups()).toEqual(before);
    // Both statements run in the caller's transaction: rolled back after writeBatch, nothing stays.
    await expect(
      ds.transaction(async (m) => {
        await recorder.writeBatch(m, [row(randomUUID()), row(randomUUID())]);
        throw new Error('rolled back after the batch');
      }),
    ).rejects.toThrow('rolled back after the batch');
    expect(await rollups()).toEqual(before);
    expect(await ds.getRepository(UsageRecord).countBy({ accountId })).toBe(1);
  });
});
