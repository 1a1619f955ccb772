import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { UsageRecorder } from '../../src/usage/usage-recorder.service';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('UsageStatsService: GET /api/v1/usage/stats?granularity=hour|day', () => {
  let t: TestApp;
  let token: string;
  const history: Array<{ at: number; status: number }> = [];
  const now = Math.floor(Date.now() / MINUTE) * MINUTE;

  beforeAll(async () => {
    t = await createTestApp();
    const account = await t.createAccount();
    token = await login(t, account);
    const recorder = t.app.get(UsageRecorder);
    for (let i = 0; i < 400; i++) {
      const at = now - 5 * MINUTE - ((i * 7_919_311) % (3 * DAY));
      const status = [200, 201, 429, 412][i % 4];
      history.push({ at, status });
      recorder.record({
        id: randomUUID(),
        accountId: account.accountId,
        authMethod: 'jwt',
        apiKeyId: null,
        userId: account.userId,
        method: 'POST',
        route: '/api/v1/defi/swap',
        statusCode: status,
        code: status >= 400 ? 'SOME_CODE' : null,
        latencyMs: 3,
        createdAt: new Date(at),
      });
    }
    // Another account's requests in the same buckets stay out.
    const other = await t.createAccount();
    recorder.record({
      id: randomUUID(),
      accountId: other.accountId,
      authMethod: 'jwt',
      apiKeyId: null,
      userId: other.userId,
      method: 'GET',
      route: '/api/v1/defi/swap',
      statusCode: 200,
      code: null,
      latencyMs: 1,
      createdAt: new Date(now - HOUR),
    });
    await recorder.flush();
  });
  afterAll(() => t.close());

  const stats = (query: Record<string, string>) =>
    request(t.server)
      .get('/api/v1/usage/stats')
      .query(query)
      .set('Authorization', `Bearer ${token}`);

  /** The expected series, counted from the raw history: each bucket clipped to [from, to). */
  function expected(from: number, to: number, span: number) {
    const points = [];
    for (let start = Math.floor(from / span) * span; start < to; start += span) {
      const inside = history.filter(
        (h) => h.at >= Math.max(from, start) && h.at < Math.min(to, start + span),
      );
      points.push({
        start: new Date(start).toISOString(),
        requests: inside.length,
        succeeded: inside.filter((h) => h.status < 400).length,
        failed: inside.filter((h) => h.status >= 400).length,
        rateLimited: inside.filter((h) => h.status === 429).length,
      });
    }
    return points;
  }

  it('gives one point per UTC hour, ragged edges counted inside the range only', async () => {
    const from = now - 30 * HOUR - 17 * MINUTE;
    const to = now - 2 * HOUR + 23 * MINUTE;
    const res = await stats({
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      granularity: 'hour',
    }).expect(200);
    expect(res.body.granularity).toBe('hour');
    expect(res.body.series).toEqual(expected(from, to, HOUR));
    const sum = res.body.series.reduce((n: number, p: { requests: number }) => n + p.requests, 0);
    expect(sum).toBe(res.body.totals.requests);
    expect(sum).toBeGreaterThan(0);
  });

  it('gives one point per UTC day', async () => {
    const from = now - 4 * DAY + 7 * HOUR;
    const to = now - 3 * MINUTE;
    const res = await stats({
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      granularity: 'day',
    }).expect(200);
    expect(res.body.series).toEqual(expected(from, to, DAY));
    expect(res.body.series[0].start).toMatch(/T00:00:00.000Z$/);
    const sum = res.body.series.reduce((n: number, p: { requests: number }) => n + p.requests, 0);
    expect(sum).toBe(history.length);
    expect(res.body.totals.requests).toBe(history.length);
  });

  it('has no series without granularity, and refuses a bad or oversized one', async () => {
    const plain = await stats({}).expect(200);
    expect(plain.body.series).toBeUndefined();
    expect((await stats({ granularity: 'week' }).expect(400)).body.code).toBe('INVALID_PARAMS');
    const tooMany = await stats({
      from: new Date(now - 60 * DAY).toISOString(),
      granularity: 'hour',
    }).expect(400);
    expect(tooMany.body).toMatchObject({ code: 'INVALID_PARAMS' });
    expect(tooMany.body.hint).toMatch(/granularity=day/);
    // The default range (30 days) fits an hourly chart: 720 or 721 points.
    const month = await stats({ granularity: 'hour' }).expect(200);
    expect(month.body.series.length).toBeGreaterThanOrEqual(720);
  });
});
