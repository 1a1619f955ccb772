import request from 'supertest';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';

const DAY_MS = 24 * 60 * 60 * 1000;

/** PATCH /api/v1/api-keys/:id (issue 33 item 3): name, scopes and expiry; never the secret. */
describe('ApiKeysController PATCH /api/v1/api-keys/:id', () => {
  let t: TestApp;
  let account: TestAccount;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    // The authentication cache is on (its default): an edit must still apply at once.
    t = await createTestApp({ env: { API_KEY_CACHE_MS: '60000' } });
    account = await t.createAccount();
    token = await login(t, account);
    otherToken = await login(t, await t.createAccount());
  });
  afterAll(() => t.close());

  const patch = (bearer: string, id: string) =>
    request(t.server).patch(`/api/v1/api-keys/${id}`).set('Authorization', `Bearer ${bearer}`);
  const listed = async (id: string) =>
    (
      await request(t.server)
        .get('/api/v1/api-keys')
        .set('Authorization', `Bearer ${token}`)
        .expect(200)
    ).body.items.find((k: { id: string }) => k.id === id);

  it('renames a key and shows who created it; the secret still works', async () => {
    const key = await createApiKey(t, token, ['usage:read'], { name: 'before' });
    const res = await patch(token, key.id).send({ name: 'after' }).expect(200);
    expect(res.body).toMatchObject({
      authMethod: 'jwt',
      id: key.id,
      name: 'after',
      scopes: ['usage:read'],
      createdByUserId: account.userId,
      active: true,
    });
    expect(res.body.key).toBeUndefined();
    expect(await listed(key.id)).toMatchObject({ name: 'after', createdByUserId: account.userId });
    await request(t.server).get('/api/v1/usage/stats').set('X-API-Key', key.key).expect(200);
  });

  it('replaces the scopes, and the very next request with the key sees them', async () => {
    const key = await createApiKey(t, token, ['usage:read']);
    // Fills this instance's authentication cache with the old row.
    await request(t.server).get('/api/v1/usage/stats').set('X-API-Key', key.key).expect(200);
    await patch(token, key.id)
      .send({ scopes: ['defi:preflight', 'defi:preflight'] })
      .expect(400);
    const res = await patch(token, key.id)
      .send({ scopes: ['defi:preflight'] })
      .expect(200);
    expect(res.body.scopes).toEqual(['defi:preflight']);
    const refused = await request(t.server)
      .get('/api/v1/usage/stats')
      .set('X-API-Key', key.key)
      .expect(403);
    expect(refused.body.code).toBe('API_KEY_SCOPE_MISSING');
  });

  it('sets and removes an expiry within the deployment lifetime', async () => {
    const key = await createApiKey(t, token, ['usage:read']);
    const at = new Date(Date.now() + 30 * DAY_MS);
    at.setUTCMilliseconds(0);
    const set = await patch(token, key.id).send({ expiresAt: at.toISOString() }).expect(200);
    expect(set.body.expiresAt).toBe(at.toISOString());
    const cleared = await patch(token, key.id).send({ expiresAt: null }).expect(200);
    expect(cleared.body.expiresAt).toBeNull();

    const past = await patch(token, key.id).send({ expiresAt: '2020-01-01T00:00:00Z' }).expect(400);
    expect(past.body.details[0]).toMatchObject({ field: 'expiresAt' });
    const far = await patch(token, key.id)
      .send({ expiresAt: new Date(Date.now() + 5_000 * DAY_MS).toISOString() })
      .expect(400);
    expect(far.body.details[0]).toMatchObject({ field: 'expiresAt', constraint: 'maxLifetime' });
  });

  it('refuses unknown fields, an empty name and an empty scope list', async () => {
    const key = await createApiKey(t, token, ['usage:read']);
    for (const body of [{ key: 'x' }, { name: '' }, { scopes: [] }, { scopes: ['nope'] }]) {
      const res = await patch(token, key.id).send(body).expect(400);
      expect(res.body.code).toBe('INVALID_PARAMS');
    }
  });

  it("answers 404 for another account's key and for no key at all", async () => {
    const key = await createApiKey(t, token, ['usage:read'], { name: 'mine' });
    for (const id of [key.id, '3fa85f64-5717-4562-b3fc-2c963f66afa6', 'not-a-uuid']) {
      const res = await patch(otherToken, id).send({ name: 'theirs' }).expect(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect((await listed(key.id)).name).toBe('mine');
  });

  it('refuses API keys (dashboard login only)', async () => {
    const key = await createApiKey(t, token, ['usage:read']);
    const res = await request(t.server)
      .patch(`/api/v1/api-keys/${key.id}`)
      .set('X-API-Key', key.key)
      .send({ name: 'self-edit' })
      .expect(403);
    expect(res.body.code).toBe('API_KEY_SCOPE_MISSING');
  });
});
