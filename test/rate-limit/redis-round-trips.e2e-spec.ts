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

/**
 * Issue 34: the production path pays one Redis round trip per request for the monthly quota and
 * the per-minute limit together (one script), with the same answers as two counters.
 */
describeRedis('Quota and rate limit in one Redis round trip', () => {
  let t: TestApp;
  let commands: string[];

  beforeAll(async () => {
    t = await createTestApp({
      env: { REDIS_URL, REDIS_KEY_PREFIX: uniqueRedisPrefix('round-trips') },
      extra: { controllers: [AuthProbeController] },
    });
    // Every command the app's Redis client sends (ioredis' one way out), by name.
    const client = t.app.get(RedisConnection).client!;
    const send = client.sendCommand.bind(client);
    commands = [];
    client.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
      commands.push(command.name);
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    }) as typeof client.sendCommand;
  });
  afterAll(() => t.close());

  it('sends one command per admitted request, and counts the minute and the month as before', async () => {
    const account = await t.createAccount();
    await t.app.get(AccountsService).setRateLimitOverride(account.accountId, 3);
    const token = await login(t, account);
    const call = () => request(t.server).get(PREFLIGHT).set('Authorization', `Bearer ${token}`);

    await call().expect(200); // the month's counter is seeded from the database: a second call
    commands.length = 0;
    const second = await call().expect(200);
    expect(commands).toEqual(['evalsha']);
    expect(second.headers['ratelimit-remaining']).toBe('1');
    expect(second.headers['x-quota-remaining']).toBe(String(10_000 - 2));

    commands.length = 0;
    await call().expect(200);
    const refused = await call().expect(429);
    expect(commands).toEqual(['evalsha', 'evalsha']);
    expect(refused.body.code).toBe('RATE_LIMIT_EXCEEDED');
    // A request the minute refuses still counts against the month (the quota guard runs first).
    expect(refused.headers['x-quota-remaining']).toBe(String(10_000 - 4));
    expect(t.app.get(RateLimitStorage).backend).toBe('redis');
  });
});
