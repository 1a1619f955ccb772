import request from 'supertest';
import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/accounts/accounts.service';
import { AccountLimitsService } from '../../src/usage/rate-limit/account-limits.service';
import { UsageRecord } from '../../src/usage/usage-record.entity';
import { UsageRecorder } from '../../src/usage/usage-recorder.service';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { createTestDatabase } from '../helpers/test-env';
import { AuthProbeController } from '../auth/auth-probe.controller';

const extra = { controllers: [AuthProbeController] };
const SWAP = '/api/v1/test-protected/swap';

describe('Usage metering and GET /api/v1/usage/stats', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ extra });
  });
  afterAll(() => t.close());

  it('counts every protected request of the account, by endpoint, code and key', async () => {
    const account = await t.createAccount();
    await t.app.get(AccountsService).setRateLimitOverride(account.accountId, 10);
    const token = await login(t, account);
    const bearer = { Authorization: `Bearer ${token}` };
    const k1 = await createApiKey(t, token, ['defi:swap', 'defi:preflight']);
    const k2 = await createApiKey(t, token, ['usage:read']);
    for (let i = 0; i < 3; i++)
      await request(t.server)
        .post(SWAP)
        .set('X-API-Key', k1.key)
        .send({ label: 'a', count: 1 })
        .expect(201);
    await request(t.server)
      .post(SWAP)
      .set('X-API-Key', k2.key)
      .send({ label: 'a', count: 1 })
      .expect(403);
    await request(t.server).get('/api/v1/test-protected/preflight/0x1').set(bearer).expect(200);
    await request(t.server).get('/api/v1/test-protected/fail').set(bearer).expect(500);
    // Not metered: validation failures, failed authentication, public routes.
    await request(t.server).post(SWAP).set('X-API-Key', k1.key).send({}).expect(400);
    await request(t.server)
      .post(SWAP)
      .set('X-API-Key', 'cgk_test_nope')
      .send({ label: 'a', count: 1 })
      .expect(401);
    await request(t.server).get('/health/live').expect(200);
    const preflight = [];
    for (let i = 0; i < 4; i++)
      preflight.push(
        (
          await request(t.server)
            .get(`/api/v1/test-protected/preflight/0x${i}`)
            .set('X-API-Key', k1.key)
        ).status,
      );
    expect(preflight).toEqual([200, 200, 200, 429]);
    // An operator raises the limit (CLI set-rate-limit); applied within the cache time, here at once.
    await t.app.get(AccountsService).setRateLimitOverride(account.accountId, 100);
    t.app.get(AccountLimitsService).invalidate(account.accountId);

    const res = await request(t.server)
      .get('/api/v1/usage/stats')
      .set('X-API-Key', k2.key)
      .expect(200);
    expect(res.body.authMethod).toBe('api_key');
    expect(res.body.totals).toEqual({ requests: 12, succeeded: 9, failed: 3, rateLimited: 1 });
    expect(res.body.byCode).toEqual({
      API_KEY_SCOPE_MISSING: 1,
      INTERNAL_ERROR: 1,
      RATE_LIMIT_EXCEEDED: 1,
    });
    const endpoints = Object.fromEntries(
      res.body.byEndpoint.map((e: { method: string; route: string; requests: number }) => [
        `${e.method} ${e.route}`,
        e.requests,
      ]),
    );
    expect(endpoints).toEqual({
      'POST /api/v1/api-keys': 2,
      'POST /api/v1/test-protected/swap': 4,
      'GET /api/v1/test-protected/preflight/:address': 5,
      'GET /api/v1/test-protected/fail': 1,
    });
    for (const e of res.body.byEndpoint) expect(e.avgLatencyMs).toBeGreaterThanOrEqual(0);
    const byKey = Object.fromEntries(
      res.body.byKey.map((k: { keyId: string | null; userId: string | null; requests: number }) => [
        k.keyId ?? `user:${k.userId}`,
        k.requests,
      ]),
    );
    expect(byKey).toEqual({ [k1.id]: 7, [k2.id]: 1, [`user:${account.userId}`]: 4 });
    expect(res.body.rateLimit).toEqual({
      limit: 100,
      remaining: 88,
      resetInSeconds: expect.any(Number),
    });
    expect(res.headers['ratelimit-remaining']).toBe('88');
    expect(Date.parse(res.body.from)).toBeLessThan(Date.parse(res.body.to));

    // Filters: one key; a time range; the stats call itself is metered too.
    const onlyK1 = await request(t.server)
      .get(`/api/v1/usage/stats?keyId=${k1.id}`)
      .set(bearer)
      .expect(200);
    expect(onlyK1.body.authMethod).toBe('jwt');
    expect(onlyK1.body.totals).toEqual({ requests: 7, succeeded: 6, failed: 1, rateLimited: 1 });
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const empty = await request(t.server)
      .get(
        `/api/v1/usage/stats?from=${future}&to=${new Date(Date.now() + 7_200_000).toISOString()}`,
      )
      .set(bearer)
      .expect(200);
    expect(empty.body.totals.requests).toBe(0);
    const all = await request(t.server).get('/api/v1/usage/stats').set(bearer).expect(200);
    expect(all.body.totals.requests).toBe(15);
  });

  it("never shows another account's usage, even with its key id", async () => {
    const victim = await t.createAccount();
    const victimToken = await login(t, victim);
    const victimKey = await createApiKey(t, victimToken, ['defi:swap']);
    await request(t.server)
      .post(SWAP)
      .set('X-API-Key', victimKey.key)
      .send({ label: 'a', count: 1 })
      .expect(201);
    const attackerToken = await login(t, await t.createAccount());
    const res = await request(t.server)
      .get(`/api/v1/usage/stats?keyId=${victimKey.id}`)
      .set('Authorization', `Bearer ${attackerToken}`)
      .expect(200);
    expect(res.body.totals).toEqual({ requests: 0, succeeded: 0, failed: 0, rateLimited: 0 });
    expect(res.body.byKey).toEqual([]);
  });

  it('gives usage rows time-ordered ids (UUIDv7), so batches append to the primary key', async () => {
    const account = await t.createAccount({ plan: 'pro' });
    const token = await login(t, account);
    const key = await createApiKey(t, token, ['defi:preflight']);
    for (let i = 0; i < 5; i++)
      await request(t.server)
        .get(`/api/v1/test-protected/preflight/0x${i}`)
        .set('X-API-Key', key.key)
        .expect(200);
    await t.app.get(UsageRecorder).flush();
    const rows = await t.app
      .get(DataSource)
      .getRepository(UsageRecord)
      .find({ where: { accountId: account.accountId, apiKeyId: key.id } });
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/);
    // Sequential requests: the order of their ids is the order they were made in.
    const byId = [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
    const madeAt = byId.map((row) => row.createdAt.getTime());
    expect(madeAt).toEqual([...madeAt].sort((a, b) => a - b));
    expect(new Set(rows.map((row) => row.id)).size).toBe(5);
  });

  it('validates its query before authentication and needs usage:read of a key', async () => {
    expect(
      (await request(t.server).get('/api/v1/usage/stats?from=yesterday').expect(400)).body.code,
    ).toBe('INVALID_PARAMS');
    expect((await request(t.server).get('/api/v1/usage/stats?keyId=1').expect(400)).body.code).toBe(
      'INVALID_PARAMS',
    );
    const token = await login(t, await t.createAccount());
    const later = new Date().toISOString();
    const earlier = new Date(Date.now() - 1000).toISOString();
    const res = await request(t.server)
      .get(`/api/v1/usage/stats?from=${later}&to=${earlier}`)
      .set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(400);
    const key = await createApiKey(t, token, ['defi:swap']);
    expect(
      (await request(t.server).get('/api/v1/usage/stats').set('X-API-Key', key.key).expect(403))
        .body.code,
    ).toBe('API_KEY_SCOPE_MISSING');
  });
});

describe('UsageRecorder shutdown', () => {
  it('loses no usage row on app.close(), across several batches', async () => {
    const db = await createTestDatabase();
    const first = await createTestApp({ db, extra });
    let accountId: string;
    const requests = 230;
    try {
      const account = await first.createAccount({ plan: 'pro' });
      accountId = account.accountId;
      const token = await login(first, account);
      const key = await createApiKey(first, token, ['defi:preflight']);
      for (let i = 0; i < requests; i += 23) {
        await Promise.all(
          Array.from({ length: 23 }, (_, j) =>
            request(first.server)
              .get(`/api/v1/test-protected/preflight/0x${i + j}`)
              .set('X-API-Key', key.key)
              .expect(200),
          ),
        );
      }
    } finally {
      await first.close();
    }
    const second = await createTestApp({ db, extra });
    try {
      const rows = await second.app
        .get(DataSource)
        .getRepository(UsageRecord)
        .countBy({ accountId: accountId! });
      expect(rows).toBe(requests + 1); // + the key creation
    } finally {
      await second.close();
      await db.drop();
    }
  });
});
