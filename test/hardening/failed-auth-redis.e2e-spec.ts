import request from 'supertest';
import { createTestApp } from '../helpers/app';
import { uniqueRedisPrefix } from '../helpers/auth';
import { createTestDatabase } from '../helpers/test-env';

const REDIS_URL = process.env.TEST_REDIS_URL;
const describeRedis = REDIS_URL ? describe : describe.skip;

describeRedis('Failed-auth throttling shared in Redis (TEST_REDIS_URL)', () => {
  it('two instances add up the failures of one client IP', async () => {
    const db = await createTestDatabase();
    const env = {
      REDIS_URL,
      REDIS_KEY_PREFIX: uniqueRedisPrefix('authfail'),
      TRUST_PROXY: 'true',
      AUTH_FAILED_API_KEYS_PER_IP_PER_MINUTE: '6',
    };
    const a = await createTestApp({ db, env });
    const b = await createTestApp({ db, env });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i += 1) {
        const res = await request((i % 2 ? a : b).server)
          .get('/api/v1/usage/stats')
          .set('X-Forwarded-For', '203.0.113.50')
          .set('X-API-Key', `cgk_test_${'0'.repeat(47)}${i}`);
        statuses.push(res.status);
      }
      // 6 failures in all (3 on each instance) are answered; the 7th, on either, is 429.
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
});
