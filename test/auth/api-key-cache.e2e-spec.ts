/**
 * Issue 17: a key row read for authentication is reused for API_KEY_CACHE_MS by the instance
 * that read it. The auth decisions stay those of the database: a revocation through this instance
 * applies at once, one made elsewhere (another instance, the database) within the cache time,
 * expiry on every request, and a wrong secret is refused even while its row is cached.
 */
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKey } from '../../src/auth/api-keys/api-key.entity';
import { createTestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { pollUntil } from '../helpers/wait';
import { AuthProbeController } from './auth-probe.controller';

const SWAP = '/api/v1/test-protected/swap';
const BODY = { label: 'x', count: 1 };

async function cachedApp(cacheMs: number) {
  const t = await createTestApp({
    extra: { controllers: [AuthProbeController] },
    env: { API_KEY_CACHE_MS: String(cacheMs) },
  });
  const token = await login(t, await t.createAccount());
  const newKey = () => createApiKey(t, token, ['defi:swap']);
  const swap = (key: string) => request(t.server).post(SWAP).set('X-API-Key', key).send(BODY);
  const keys = () => t.app.get(DataSource).getRepository(ApiKey);
  /** What another instance (or an operator) does: a write this instance's cache never sees. */
  const revokeElsewhere = (id: string) =>
    keys().update({ id }, { active: false, revokedAt: new Date() });
  const outcome = async (key: string) => {
    const res = await swap(key);
    return `${res.status} ${res.body.code ?? ''}`.trim();
  };
  return { t, token, newKey, swap, keys, revokeElsewhere, outcome };
}

describe('API-key authentication cache (API_KEY_CACHE_MS)', () => {
  describe('a long cache (60 s)', () => {
    let c: Awaited<ReturnType<typeof cachedApp>>;
    beforeAll(async () => {
      c = await cachedApp(60_000);
    });
    afterAll(() => c.t.close());

    it('reuses the row: a revocation made elsewhere is not seen within the cache time', async () => {
      const key = await c.newKey();
      expect(await c.outcome(key.key)).toBe('201');
      await c.revokeElsewhere(key.id);
      expect(await c.outcome(key.key)).toBe('201');
    });

    it('applies a revocation through this instance at once', async () => {
      const key = await c.newKey();
      expect(await c.outcome(key.key)).toBe('201');
      await request(c.t.server)
        .delete(`/api/v1/api-keys/${key.id}`)
        .set('Authorization', `Bearer ${c.token}`)
        .expect(200);
      expect(await c.outcome(key.key)).toBe('401 API_KEY_INACTIVE');
    });

    it('checks the expiry on every request, not when the row was read', async () => {
      const key = await c.newKey();
      await c.keys().update({ id: key.id }, { expiresAt: new Date(Date.now() + 1_500) });
      expect(await c.outcome(key.key)).toBe('201');
      await pollUntil(
        'the cached key to expire',
        () => c.outcome(key.key),
        (o) => o !== '201',
        { timeoutMs: 5_000, intervalMs: 100 },
      );
      expect(await c.outcome(key.key)).toBe('401 API_KEY_EXPIRED');
    });

    it('still compares the secret: a wrong secret with a cached prefix is a hash mismatch', async () => {
      const key = await c.newKey();
      expect(await c.outcome(key.key)).toBe('201');
      const forged = `${key.key.slice(0, -4)}${key.key.endsWith('0000') ? '1111' : '0000'}`;
      expect(await c.outcome(forged)).toBe('401 API_KEY_HASH_MISMATCH');
      expect(await c.outcome(key.key)).toBe('201');
    });

    it('writes last_used_at once for a burst of requests, not once per request', async () => {
      const key = await c.newKey();
      for (let i = 0; i < 5; i += 1) expect(await c.outcome(key.key)).toBe('201');
      const row = await pollUntil(
        'last_used_at to be written',
        () => c.keys().findOneByOrFail({ id: key.id }),
        (r) => r.lastUsedAt !== null,
      );
      const first = row.lastUsedAt!.getTime();
      for (let i = 0; i < 5; i += 1) expect(await c.outcome(key.key)).toBe('201');
      expect((await c.keys().findOneByOrFail({ id: key.id })).lastUsedAt!.getTime()).toBe(first);
    });
  });

  describe('a short cache (300 ms)', () => {
    let c: Awaited<ReturnType<typeof cachedApp>>;
    beforeAll(async () => {
      c = await cachedApp(300);
    });
    afterAll(() => c.t.close());

    it('honours a revocation made elsewhere once the cache time has passed', async () => {
      const key = await c.newKey();
      expect(await c.outcome(key.key)).toBe('201');
      await c.revokeElsewhere(key.id);
      await pollUntil(
        'the revocation to be seen',
        () => c.outcome(key.key),
        (o) => o === '401 API_KEY_INACTIVE',
        { timeoutMs: 3_000, intervalMs: 50 },
      );
    });
  });

  describe('no cache (0)', () => {
    let c: Awaited<ReturnType<typeof cachedApp>>;
    beforeAll(async () => {
      c = await cachedApp(0);
    });
    afterAll(() => c.t.close());

    it('reads the row on every request: a revocation made elsewhere applies at once', async () => {
      const key = await c.newKey();
      expect(await c.outcome(key.key)).toBe('201');
      await c.revokeElsewhere(key.id);
      expect(await c.outcome(key.key)).toBe('401 API_KEY_INACTIVE');
    });
  });
});
