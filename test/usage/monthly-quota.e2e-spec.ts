import request from 'supertest';
import { AccountsService } from '../../src/accounts/accounts.service';
import { AccountLimitsService } from '../../src/usage/rate-limit/account-limits.service';
import { RedisConnection } from '../../src/usage/rate-limit/redis-connection';
import { UsageRollupsService } from '../../src/usage/rollups/usage-rollups.service';
import { UsageRecorder } from '../../src/usage/usage-recorder.service';
import { AuthProbeController } from '../auth/auth-probe.controller';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login, uniqueRedisPrefix } from '../helpers/auth';
import { createTestDatabase } from '../helpers/test-env';

const REDIS_URL = process.env.TEST_REDIS_URL;
const describeRedis = REDIS_URL ? describe : describe.skip;
const PREFLIGHT = '/api/v1/test-protected/preflight/0x1';
const extra = { controllers: [AuthProbeController] };

function nextMonthUtc(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

async function setQuota(t: TestApp, accountId: string, perMonth: number | null): Promise<void> {
  await t.app.get(AccountsService).setMonthlyQuotaOverride(accountId, perMonth);
  t.app.get(AccountLimitsService).invalidate(accountId);
}

describe('GET /api/v1/plans', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists the plans without credentials, null for unlimited', async () => {
    const res = await request(t.server).get('/api/v1/plans').expect(200);
    expect(res.body.monthlyQuotaExcludes).toMatch(/^Dashboard reads/);
    expect(res.body).toMatchObject({
      plans: [
        { name: 'free', requestsPerMinute: 120, monthlyQuota: 10_000, maxApiKeys: 10 },
        { name: 'pro', requestsPerMinute: 1_200, monthlyQuota: 1_000_000, maxApiKeys: 100 },
        { name: 'enterprise', requestsPerMinute: 12_000, monthlyQuota: null, maxApiKeys: 1_000 },
      ],
    });
    expect(res.headers['x-quota-limit']).toBeUndefined();
  });
});

describe('Monthly quota', () => {
  it('admits the quota, then 402 QUOTA_EXCEEDED with the envelope and headers; survives a restart', async () => {
    const db = await createTestDatabase();
    const first = await createTestApp({ db, extra });
    let account: Awaited<ReturnType<TestApp['createAccount']>>;
    let key: { id: string; key: string };
    try {
      account = await first.createAccount();
      const token = await login(first, account);
      key = await createApiKey(first, token, ['defi:preflight', 'usage:read']); // 1 request
      const stats = await request(first.server)
        .get('/api/v1/usage/stats')
        .set('X-API-Key', key.key)
        .expect(200); // 2
      expect(stats.body.plan).toBe('free');
      expect(stats.body.quota).toEqual({
        limit: 10_000,
        used: 2,
        remaining: 9_998,
        resetsAt: nextMonthUtc(),
      });
      expect(stats.headers['x-quota-limit']).toBe('10000');
      expect(stats.headers['x-quota-remaining']).toBe('9998');
      const reset = Number(stats.headers['x-quota-reset']);
      expect(Math.abs(reset - (Date.parse(nextMonthUtc()) - Date.now()) / 1000)).toBeLessThan(5);

      // The operator sets a quota of 5 (CLI set-quota): 3 more are admitted, then 402.
      await setQuota(first, account.accountId, 5);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push(
          (await request(first.server).get(PREFLIGHT).set('X-API-Key', key.key)).status,
        );
      expect(statuses).toEqual([200, 200, 200, 402, 402]);
      const refused = await request(first.server)
        .get(PREFLIGHT)
        .set('Authorization', `Bearer ${token}`)
        .expect(402);
      expect(refused.body).toMatchObject({
        error: 'Payment Required',
        code: 'QUOTA_EXCEEDED',
        phase: 'auth',
        details: [{ limit: 5, used: 5, resetsAt: nextMonthUtc() }],
      });
      expect(refused.body.hint).toMatch(/Upgrade from the free plan to pro/);
      expect(refused.headers['x-quota-limit']).toBe('5');
      expect(refused.headers['x-quota-remaining']).toBe('0');
      // Failed authentication counts for nobody and is not a quota answer.
      await request(first.server).get(PREFLIGHT).set('X-API-Key', 'cgk_test_nope').expect(401);
    } finally {
      await first.close();
    }
    // A restart (no Redis: counters in memory) does not reset the month: seeded from roll-ups.
    const second = await createTestApp({ db, extra });
    try {
      await request(second.server).get(PREFLIGHT).set('X-API-Key', key!.key).expect(402);
      await setQuota(second, account!.accountId, 6);
      await request(second.server).get(PREFLIGHT).set('X-API-Key', key!.key).expect(200);
      await request(second.server).get(PREFLIGHT).set('X-API-Key', key!.key).expect(402);
      // 0 removes the override: the plan's 10,000 again.
      await setQuota(second, account!.accountId, null);
      const back = await request(second.server)
        .get(PREFLIGHT)
        .set('X-API-Key', key!.key)
        .expect(200);
      expect(back.headers['x-quota-remaining']).toBe(String(10_000 - 7));
    } finally {
      await second.close();
      await db.drop();
    }
  });

  it('counts an unlimited plan without refusing, and reports it as unlimited', async () => {
    const t = await createTestApp({ extra });
    try {
      const account = await t.createAccount({ plan: 'enterprise' });
      const token = await login(t, account);
      const res = await request(t.server)
        .get('/api/v1/usage/stats')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(res.body.plan).toBe('enterprise');
      // The dashboard's own read (JWT GET of usage) is not counted (issue 33).
      expect(res.body.quota).toEqual({
        limit: null,
        used: 0,
        remaining: null,
        resetsAt: nextMonthUtc(),
      });
      expect(res.headers['x-quota-limit']).toBe('unlimited');
      expect(res.headers['x-quota-remaining']).toBe('unlimited');
    } finally {
      await t.close();
    }
  });
});

describe("Monthly quota: the dashboard's own reads are free (issue 33)", () => {
  it('JWT GETs of usage, api-keys, wallets and webhooks do not count; everything else does, across a restart', async () => {
    const db = await createTestDatabase();
    const first = await createTestApp({ db, extra });
    let account: Awaited<ReturnType<TestApp['createAccount']>>;
    let token: string;
    const remaining = (res: request.Response) => Number(res.headers['x-quota-remaining']);
    try {
      account = await first.createAccount();
      await setQuota(first, account.accountId, 100);
      token = await login(first, account);
      const dashboardReads = [
        '/api/v1/usage/stats',
        '/api/v1/api-keys',
        '/api/v1/wallets',
        '/api/v1/webhooks',
      ];
      const before = await request(first.server)
        .get('/api/v1/usage/stats')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(before.body.quota).toMatchObject({ limit: 100, used: 0, remaining: 100 });
      for (let i = 0; i < 3; i++)
        for (const path of dashboardReads) {
          const res = await request(first.server)
            .get(path)
            .set('Authorization', `Bearer ${token}`)
            .expect(200);
          expect(res.headers['x-quota-limit']).toBe('100');
          expect(remaining(res)).toBe(100);
        }
      // A write with the dashboard login counts, and so does an API key's read of usage.
      const key = await createApiKey(first, token, ['usage:read', 'defi:preflight']); // 1
      const byKey = await request(first.server)
        .get('/api/v1/usage/stats')
        .set('X-API-Key', key.key)
        .expect(200); // 2
      expect(remaining(byKey)).toBe(98);
      // A JWT GET of another endpoint counts too.
      const probe = await request(first.server)
        .get(PREFLIGHT)
        .set('Authorization', `Bearer ${token}`)
        .expect(200); // 3
      expect(remaining(probe)).toBe(97);
      const after = await request(first.server)
        .get('/api/v1/usage/stats')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(after.body.quota).toMatchObject({ used: 3, remaining: 97 });
      expect(remaining(after)).toBe(97);
    } finally {
      await first.close();
    }
    // A restart seeds the month from the roll-ups without the free reads.
    const second = await createTestApp({ db, extra });
    try {
      const res = await request(second.server)
        .get('/api/v1/usage/stats')
        .set('Authorization', `Bearer ${await login(second, account!)}`)
        .expect(200);
      expect(res.body.quota).toMatchObject({ used: 3, remaining: 97 });
    } finally {
      await second.close();
      await db.drop();
    }
  });
});

/**
 * An account with nothing counted yet this month: its dashboard reads read the month from the
 * database once (the seed is kept as a counted request keeps it), not at every read.
 */
async function expectFreeReadsSeedOnce(env: Record<string, string> = {}): Promise<void> {
  const t = await createTestApp({ env, extra });
  try {
    const account = await t.createAccount();
    await setQuota(t, account.accountId, 100);
    const token = await login(t, account);
    const seeds = jest.spyOn(t.app.get(UsageRollupsService), 'quotaUsedSince');
    for (let i = 0; i < 4; i++) {
      const res = await request(t.server)
        .get('/api/v1/api-keys')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(res.headers['x-quota-remaining']).toBe('100');
    }
    expect(seeds.mock.calls.filter(([id]) => id === account.accountId)).toHaveLength(1);
    // The kept seed is the counter a counted request then moves on.
    await createApiKey(t, token, ['defi:preflight']);
    const after = await request(t.server)
      .get('/api/v1/api-keys')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(after.headers['x-quota-remaining']).toBe('99');
    expect(seeds.mock.calls.filter(([id]) => id === account.accountId)).toHaveLength(1);
    seeds.mockRestore();
  } finally {
    await t.close();
  }
}

describe('Monthly quota: free reads keep the seed they read', () => {
  it('in memory', async () => {
    await expectFreeReadsSeedOnce();
  });
});

describeRedis('Monthly quota on Redis (TEST_REDIS_URL)', () => {
  it('free reads keep the seed they read in Redis', async () => {
    await expectFreeReadsSeedOnce({
      REDIS_URL: REDIS_URL!,
      REDIS_KEY_PREFIX: uniqueRedisPrefix('peek'),
    });
  });

  it('two instances sharing Redis admit exactly the quota together, and a lost counter is re-seeded', async () => {
    const db = await createTestDatabase();
    const env = { REDIS_URL, REDIS_KEY_PREFIX: uniqueRedisPrefix('quota') };
    const a = await createTestApp({ db, env, extra });
    const b = await createTestApp({ db, env, extra });
    try {
      expect(a.app.get(RedisConnection).isReady).toBe(true);
      const account = await a.createAccount({ plan: 'pro' });
      await setQuota(a, account.accountId, 7);
      await setQuota(b, account.accountId, 7);
      const token = await login(a, account);
      const key = await createApiKey(b, token, ['defi:preflight']); // 1 of the 7, on b
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          request((i % 2 ? a : b).server)
            .get(PREFLIGHT)
            .set(i % 3 ? { 'X-API-Key': key.key } : { Authorization: `Bearer ${token}` }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(6);
      expect(statuses.filter((s) => s === 402)).toHaveLength(6);
      const redis = a.app.get(RedisConnection).client!;
      const month = new Date().toISOString().slice(0, 7);
      const counter = `${env.REDIS_KEY_PREFIX}quota:${account.accountId}:${month}`;
      expect(await redis.get(counter)).toBe('7');
      const ttl = await redis.pttl(counter);
      expect(ttl).toBeGreaterThan(Date.parse(nextMonthUtc()) - Date.now());

      // Redis loses the counter (flush, failover): the month is read back from the roll-ups. (A
      // seed misses only other instances' rows still queued, at most a second's worth: written here.)
      await b.app.get(UsageRecorder).flush();
      await redis.del(counter);
      await setQuota(a, account.accountId, 8);
      await request(a.server).get(PREFLIGHT).set('X-API-Key', key.key).expect(200);
      await request(b.server).get(PREFLIGHT).set('X-API-Key', key.key).expect(402);
      expect(await redis.get(counter)).toBe('8');
      await redis.del(...(await redis.keys(`${env.REDIS_KEY_PREFIX}*`)));
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
});
