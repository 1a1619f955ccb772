import request from 'supertest';
import { AccountsService } from '../../src/accounts/accounts.service';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { AuthProbeController } from '../auth/auth-probe.controller';

const PREFLIGHT = '/api/v1/test-protected/preflight/0x1';

describe('AccountRateLimitGuard (memory storage)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ extra: { controllers: [AuthProbeController] } });
  });
  afterAll(() => t.close());

  it('shares one window per account across its keys and users; 429 with retryAfter and Retry-After', async () => {
    const account = await t.createAccount();
    await t.app.get(AccountsService).setRateLimitOverride(account.accountId, 5);
    const token = await login(t, account);
    const keyA = await createApiKey(t, token, ['defi:preflight']);
    const keyB = await createApiKey(t, token, ['defi:preflight']);
    const callers = [
      (r: request.Test) => r.set('X-API-Key', keyA.key),
      (r: request.Test) => r.set('X-API-Key', keyB.key),
      (r: request.Test) => r.set('Authorization', `Bearer ${token}`),
    ];
    // The two key creations above were protected requests of this account too: 3 left.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await callers[i % 3](request(t.server).get(PREFLIGHT));
      statuses.push(res.status);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
      if (res.status === 429) {
        expect(res.body).toMatchObject({
          code: 'RATE_LIMIT_EXCEEDED',
          phase: 'auth',
          error: 'Too Many Requests',
        });
        expect(Number.isInteger(res.body.retryAfter)).toBe(true);
        expect(res.body.retryAfter).toBeGreaterThan(0);
        expect(res.headers['retry-after']).toBe(String(res.body.retryAfter));
        expect(res.headers['ratelimit-remaining']).toBe('0');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('does not charge failed authentication to anyone, and other accounts are independent', async () => {
    const account = await t.createAccount();
    await t.app.get(AccountsService).setRateLimitOverride(account.accountId, 3);
    const token = await login(t, account);
    const key = await createApiKey(t, token, ['usage:read']);
    for (let i = 0; i < 5; i++) {
      await request(t.server)
        .get(PREFLIGHT)
        .set('X-API-Key', `${key.key.slice(0, -1)}${key.key.endsWith('0') ? '1' : '0'}`)
        .expect(401);
      await request(t.server).get(PREFLIGHT).set('Authorization', 'Bearer x.y.z').expect(401);
    }
    const res = await request(t.server)
      .get('/api/v1/usage/stats')
      .set('X-API-Key', key.key)
      .expect(200);
    expect(res.headers['ratelimit-remaining']).toBe('1');
    const other = await t.createAccount();
    const otherToken = await login(t, other);
    const otherRes = await request(t.server)
      .get(PREFLIGHT)
      .set('Authorization', `Bearer ${otherToken}`)
      .expect(200);
    expect(otherRes.headers['ratelimit-limit']).toBe('120');
    expect(otherRes.headers['ratelimit-remaining']).toBe('119');
  });

  it('uses the plan limit: pro is 1,200 per minute', async () => {
    const token = await login(t, await t.createAccount({ plan: 'pro' }));
    const res = await request(t.server)
      .get(PREFLIGHT)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(res.headers['ratelimit-limit']).toBe('1200');
  });

  it('leaves public routes alone', async () => {
    const res = await request(t.server).get('/health/live').expect(200);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });
});
