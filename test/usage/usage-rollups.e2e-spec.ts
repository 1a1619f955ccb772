import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { UsageRecord } from '../../src/usage/usage-record.entity';
import { UsageRecorder } from '../../src/usage/usage-recorder.service';
import type { UsageBreakdown } from '../../src/usage/rollups/fold-stats';
import { UsageRollup } from '../../src/usage/rollups/usage-rollup.entity';
import { UsageStatsService } from '../../src/usage/usage-stats.service';
import { AuthProbeController } from '../auth/auth-probe.controller';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';

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
    // And the endpoint answers from the same roll-ups (default range: the last 30 days).
    const res = await request(t.server)
      .get('/api/v1/usage/stats')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const all = await t.app
      .get(DataSource)
      .getRepository(UsageRecord)
      .countBy({ accountId: account.accountId });
    expect(res.body.totals.requests).toBe(all);
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
});
