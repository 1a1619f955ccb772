import request from 'supertest';
import { AccountsService } from '../../src/accounts/accounts.service';
import { RateLimitStorage } from '../../src/usage/rate-limit/rate-limit.storage';
import { RedisConnection } from '../../src/usage/rate-limit/redis-connection';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login, uniqueRedisPrefix } from '../helpers/auth';
import { closedPort } from '../helpers/ports';
import { createTestDatabase } from '../helpers/test-env';
import { AuthProbeController } from '../auth/auth-probe.controller';

const REDIS_URL = process.env.TEST_REDIS_URL;
const describeRedis = REDIS_URL ? describe : describe.skip;
const PREFLIGHT = '/api/v1/test-protected/preflight/0x1';

describeRedis('Rate limit on Redis (TEST_REDIS_URL)', () => {
  it('two instances sharing Redis and one database admit exactly the limit together', async () => {
    const db = await createTestDatabase();
    const env = { REDIS_URL, REDIS_KEY_PREFIX: uniqueRedisPrefix('shared') };
    const extra = { controllers: [AuthProbeController] };
    const a = await createTestApp({ db, env, extra });
    const b = await createTestApp({ db, env, extra });
    try {
      expect(a.app.get(RedisConnection).isReady).toBe(true);
      const account = await a.createAccount();
      await a.app.get(AccountsService).setRateLimitOverride(account.accountId, 5);
      const token = await login(a, account);
      const key = await createApiKey(b, token, ['defi:preflight']); // 1 request of the 5, on b
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          request((i % 2 ? a : b).server)
            .get(PREFLIGHT)
            .set(i % 3 ? { 'X-API-Key': key.key } : { Authorization: `Bearer ${token}` }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(4);
      expect(statuses.filter((s) => s === 429)).toHaveLength(6);
      expect(a.app.get(RateLimitStorage).backend).toBe('redis');
      expect(b.app.get(RateLimitStorage).backend).toBe('redis');
      const ready = await request(a.server).get('/health/ready').expect(200);
      expect(ready.body.info.redis.status).toBe('up');
      // Counters live under this app's prefix only, with the window's TTL.
      const redis = a.app.get(RedisConnection).client!;
      const keys = await redis.keys(`{${env.REDIS_KEY_PREFIX}*`);
      const counter = `{${env.REDIS_KEY_PREFIX}rl:${account.accountId}:account}:hits`;
      expect(keys).toContain(counter);
      expect(await redis.get(counter)).toBe('11'); // the key creation + 10
      const ttl = await redis.pttl(counter);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      await redis.del(...keys);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
});

describe('Redis outage policy: fail open, per instance', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
        REDIS_KEY_PREFIX: uniqueRedisPrefix('down'),
      },
      extra: { controllers: [AuthProbeController] },
    });
  });
  afterAll(() => t.close());

  it('keeps serving, still enforces the limit in memory, never hangs, and readiness shows Redis degraded', async () => {
    const account = await t.createAccount();
    await t.app.get(AccountsService).setRateLimitOverride(account.accountId, 3);
    const token = await login(t, account);
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await request(t.server).get(PREFLIGHT).set('Authorization', `Bearer ${token}`)).status,
      );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(t.app.get(RateLimitStorage).backend).toBe('memory-fallback');
    const ready = await request(t.server).get('/health/ready').expect(200);
    expect(ready.body.status).toBe('degraded');
    expect(ready.body.details.redis).toMatchObject({
      status: 'degraded',
      message: expect.stringMatching(/per instance/),
    });
    expect(ready.body.details.database.status).toBe('up');
  });
});
