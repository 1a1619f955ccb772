import request from 'supertest';
import { AccountsService } from '../../src/accounts/accounts.service';
import { RateLimitStorage } from '../../src/usage/rate-limit/rate-limit.storage';
import { RedisConnection } from '../../src/usage/rate-limit/redis-connection';
import { createTestApp, TestApp } from '../helpers/app';
import { login, uniqueRedisPrefix } from '../helpers/auth';
import { AuthProbeController } from '../auth/auth-probe.controller';
import { TcpProxy } from '../helpers/tcp-proxy';
import { pollUntil } from '../helpers/wait';

const REDIS_URL = process.env.TEST_REDIS_URL;
const describeRedis = REDIS_URL ? describe : describe.skip;
const PREFLIGHT = '/api/v1/test-protected/preflight/0x1';

describeRedis('Redis outage during operation (fail open, then back to Redis)', () => {
  let t: TestApp;
  let proxy: TcpProxy;

  beforeAll(async () => {
    const target = new URL(REDIS_URL!);
    proxy = await new TcpProxy(Number(target.port || 6379), target.hostname).up();
    t = await createTestApp({
      env: {
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
        REDIS_KEY_PREFIX: uniqueRedisPrefix('outage'),
        REDIS_COMMAND_TIMEOUT_MS: '200',
      },
      extra: { controllers: [AuthProbeController] },
    });
  });
  afterAll(async () => {
    await t.close();
    await proxy.down();
  });

  it('times out a stalled Redis quickly, counts in memory meanwhile, and returns to Redis', async () => {
    const account = await t.createAccount();
    await t.app.get(AccountsService).setRateLimitOverride(account.accountId, 1_000);
    const token = await login(t, account);
    const call = () => request(t.server).get(PREFLIGHT).set('Authorization', `Bearer ${token}`);
    const storage = t.app.get(RateLimitStorage);

    await call().expect(200);
    expect(storage.backend).toBe('redis');

    proxy.stall(); // Redis stops answering mid-connection
    const started = Date.now();
    const res = await call().expect(200);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(storage.backend).toBe('memory-fallback');
    expect(res.headers['ratelimit-limit']).toBe('1000');
    proxy.dropConnections(); // and then the connection breaks
    for (let i = 0; i < 3; i++) await call().expect(200);
    const ready = await request(t.server).get('/health/ready').expect(200);
    expect(ready.body.details.redis.status).toBe('degraded');

    proxy.forward();
    proxy.dropConnections();
    const redis = t.app.get(RedisConnection);
    await pollUntil('the Redis client to reconnect', () => redis.isReady, Boolean);
    await call().expect(200);
    expect(storage.backend).toBe('redis');
    expect(
      (await request(t.server).get('/health/ready').expect(200)).body.details.redis.status,
    ).toBe('up');
  });
});
