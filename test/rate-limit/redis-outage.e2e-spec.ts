import { AddressInfo, connect, createServer, Socket } from 'node:net';
import request from 'supertest';
import { AccountsService } from '../../src/accounts/accounts.service';
import { RateLimitStorage } from '../../src/usage/rate-limit/rate-limit.storage';
import { RedisConnection } from '../../src/usage/rate-limit/redis-connection';
import { createTestApp, TestApp } from '../helpers/app';
import { login, uniqueRedisPrefix } from '../helpers/auth';
import { AuthProbeController } from '../auth/auth-probe.controller';

const REDIS_URL = process.env.TEST_REDIS_URL;
const describeRedis = REDIS_URL ? describe : describe.skip;
const PREFLIGHT = '/api/v1/test-protected/preflight/0x1';

/** A TCP proxy to the real Redis that can stall (swallow traffic) or drop its connections. */
async function redisProxy(target: URL) {
  let stalled = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (d) => !stalled && upstream.write(d));
    upstream.on('data', (d) => !stalled && client.write(d));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stall: (on: boolean) => (stalled = on),
    dropConnections: () => sockets.forEach((s) => s.destroy()),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describeRedis('Redis outage during operation (fail open, then back to Redis)', () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof redisProxy>>;

  beforeAll(async () => {
    proxy = await redisProxy(new URL(REDIS_URL!));
    t = await createTestApp({
      env: {
        REDIS_URL: proxy.url,
        REDIS_KEY_PREFIX: uniqueRedisPrefix('outage'),
        REDIS_COMMAND_TIMEOUT_MS: '200',
      },
      extra: { controllers: [AuthProbeController] },
    });
  });
  afterAll(async () => {
    await t.close();
    proxy.dropConnections();
    await proxy.close();
  });

  it('times out a stalled Redis quickly, counts in memory meanwhile, and returns to Redis', async () => {
    const account = await t.createAccount();
    await t.app.get(AccountsService).setRateLimitOverride(account.accountId, 1_000);
    const token = await login(t, account);
    const call = () => request(t.server).get(PREFLIGHT).set('Authorization', `Bearer ${token}`);
    const storage = t.app.get(RateLimitStorage);

    await call().expect(200);
    expect(storage.backend).toBe('redis');

    proxy.stall(true); // Redis stops answering mid-connection
    const started = Date.now();
    const res = await call().expect(200);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(storage.backend).toBe('memory-fallback');
    expect(res.headers['ratelimit-limit']).toBe('1000');
    proxy.dropConnections(); // and then the connection breaks
    for (let i = 0; i < 3; i++) await call().expect(200);
    const ready = await request(t.server).get('/health/ready').expect(200);
    expect(ready.body.details.redis.status).toBe('degraded');

    proxy.stall(false);
    proxy.dropConnections();
    const redis = t.app.get(RedisConnection);
    for (let i = 0; i < 50 && !redis.isReady; i++) await new Promise((r) => setTimeout(r, 100));
    expect(redis.isReady).toBe(true);
    await call().expect(200);
    expect(storage.backend).toBe('redis');
    expect(
      (await request(t.server).get('/health/ready').expect(200)).body.details.redis.status,
    ).toBe('up');
  });
});
