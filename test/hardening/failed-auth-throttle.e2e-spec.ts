import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';

/**
 * Failed authentications per client IP (issue 16: 2). TRUST_PROXY=true: the client is the
 * X-Forwarded-For address, as behind a load balancer, so one test app can play several clients.
 */
describe('Failed-auth throttling per client IP', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
  }, 60_000);
  afterAll(() => t?.close());

  const from = (ip: string, r: request.Test) => r.set('X-Forwarded-For', ip);

  it('40 failed logins on different emails from one IP end in 429; a client at another IP still logs in', async () => {
    const attacker = '203.0.113.7';
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 40; i += 1) {
      last = await from(attacker, request(t.server).post('/auth/login')).send({
        email: `victim${i}@example.com`,
        password: 'guess guess guess',
      });
      statuses.push(last.status);
    }
    // Default limit: 30 failures a minute per IP (AUTH_FAILED_LOGINS_PER_IP_PER_MINUTE).
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
    expect(last!.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', phase: 'auth' });
    expect(last!.body.retryAfter).toBeGreaterThan(0);
    expect(last!.headers['retry-after']).toBe(String(last!.body.retryAfter));

    // The right password from the blocked IP is refused too (no argon2 work for a blocked IP)...
    const account = await t.createAccount();
    await from(attacker, request(t.server).post('/auth/login'))
      .send({ email: account.email, password: account.password })
      .expect(429);
    // ...while a legitimate client behind the same load balancer, at another IP, is served.
    await from('198.51.100.20', request(t.server).post('/auth/login'))
      .send({ email: account.email, password: account.password })
      .expect(200);
  });

  it('300 wrong API keys from one IP end in 429; another IP with a valid key is served', async () => {
    const token = await login(t, await t.createAccount());
    const { key } = await createApiKey(t, token, ['usage:read']);
    const attacker = '203.0.113.99';
    const codes = new Map<string, number>();
    for (let i = 0; i < 300; i += 1) {
      const guess = `cgk_test_${i.toString(16).padStart(12, '0')}${'0'.repeat(36)}`;
      const res = await from(attacker, request(t.server).get('/api/v1/usage/stats')).set(
        'X-API-Key',
        guess,
      );
      codes.set(res.body.code, (codes.get(res.body.code) ?? 0) + 1);
    }
    // Default limit: 100 refused keys a minute per IP (AUTH_FAILED_API_KEYS_PER_IP_PER_MINUTE).
    expect(Object.fromEntries(codes)).toEqual({
      API_KEY_PREFIX_NOT_FOUND: 100,
      RATE_LIMIT_EXCEEDED: 200,
    });
    await from(attacker, request(t.server).get('/api/v1/usage/stats'))
      .set('X-API-Key', key)
      .expect(429);
    const served = await from('198.51.100.21', request(t.server).get('/api/v1/usage/stats'))
      .set('X-API-Key', key)
      .expect(200);
    expect(served.body.authMethod).toBe('api_key');
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: a client cannot dodge the limit by writing it', async () => {
    const direct = await createTestApp({
      env: { AUTH_FAILED_LOGINS_PER_IP_PER_MINUTE: '3' },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const res = await request(direct.server)
          .post('/auth/login')
          .set('X-Forwarded-For', `192.0.2.${i}`)
          .send({ email: `x${i}@example.com`, password: 'guess guess guess' });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await direct.close();
    }
  });
});
