import request from 'supertest';
import { SCOPES } from '../../src/auth/scopes';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { pollUntil } from '../helpers/wait';

describe('ApiKeysController (dashboard, JWT only)', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    token = await login(t, await t.createAccount());
    otherToken = await login(t, await t.createAccount());
  });
  afterAll(() => t.close());

  const as = (bearer: string) => ({
    post: (path: string) => request(t.server).post(path).set('Authorization', `Bearer ${bearer}`),
    get: (path: string) => request(t.server).get(path).set('Authorization', `Bearer ${bearer}`),
    delete: (path: string) =>
      request(t.server).delete(path).set('Authorization', `Bearer ${bearer}`),
  });

  it('creates a key in the service format and shows the secret only once', async () => {
    const res = await as(token)
      .post('/api/v1/api-keys')
      .send({ name: 'CI', scopes: ['defi:swap', 'usage:read'] })
      .expect(201);
    expect(res.body).toMatchObject({
      authMethod: 'jwt',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'CI',
      key: expect.stringMatching(/^cgk_test_[0-9a-f]{48}$/),
      scopes: ['defi:swap', 'usage:read'],
      active: true,
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(res.body.prefix).toBe(res.body.key.slice(0, 'cgk_test_'.length + 12));
    const list = await as(token).get('/api/v1/api-keys').expect(200);
    expect(list.body.authMethod).toBe('jwt');
    const listed = list.body.items.find((k: { id: string }) => k.id === res.body.id);
    expect(listed).toBeDefined();
    expect(listed.key).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(res.body.key.slice(-36));
    expect(JSON.stringify(list.body)).not.toMatch(/hash/i);
  });

  it('records the last use of a key', async () => {
    const key = await createApiKey(t, token, ['usage:read']);
    await request(t.server).get('/api/v1/usage/stats').set('X-API-Key', key.key).expect(200);
    // The service writes lastUsedAt off the request path: poll the listing until it shows.
    const lastUsedAt = await pollUntil(
      'lastUsedAt to be recorded',
      async () =>
        (await as(token).get('/api/v1/api-keys').expect(200)).body.items.find(
          (k: { id: string }) => k.id === key.id,
        ).lastUsedAt as string | null,
      (value) => value !== null,
    );
    expect(Date.parse(lastUsedAt!)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('validates names, scopes and expiry before anything else', async () => {
    const cases = [
      { name: '', scopes: ['defi:swap'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: ['defi:swap', 'defi:swap'] },
      { name: 'x', scopes: ['defi:swap'], expiresAt: '2001-01-01T00:00:00Z' },
      { name: 'x', scopes: ['defi:swap'], expiresAt: 'tomorrow' },
      { name: 'x', scopes: ['defi:swap'], expiresAt: 1e15 },
      { name: 'x', scopes: ['defi:swap'], expiresAt: '9999-12-31T23:59:59Z' },
      { name: 'x\u202Egpj.exe', scopes: ['defi:swap'] },
      { name: 'x', scopes: ['defi:swap'], extra: true },
    ];
    for (const body of cases) {
      const res = await as(token).post('/api/v1/api-keys').send(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({
        body,
        status: 400,
        code: 'INVALID_PARAMS',
      });
    }
    await as(token)
      .post('/api/v1/api-keys')
      .send({ name: 'all', scopes: [...SCOPES] })
      .expect(201);
  });

  it('takes expiresAt as an ISO 8601 string only, in the future and at most 730 days ahead', async () => {
    const day = 24 * 60 * 60 * 1000;
    const owner = await login(t, await t.createAccount({ plan: 'pro' }));
    const create = (expiresAt: unknown) =>
      as(owner)
        .post('/api/v1/api-keys')
        .send({ name: 'expiring', scopes: ['usage:read'], expiresAt });
    const detailsOf = async (expiresAt: unknown) => {
      const res = await create(expiresAt).expect(400);
      expect(res.body).toMatchObject({ code: 'INVALID_PARAMS', phase: 'validation' });
      return res.body.details as Array<{ field: string; constraint: string; message: string }>;
    };

    // Epoch milliseconds (1e15 is year 33658) and seconds: numbers are refused, whatever they mean.
    for (const number of [1e15, Math.floor(Date.now() / 1000) + 3_600, Date.now() + day]) {
      expect(await detailsOf(number)).toEqual([
        {
          field: 'expiresAt',
          constraint: 'isIsoDateTime',
          message: expect.stringContaining('expiresAt must be an ISO 8601 string'),
        },
      ]);
    }
    for (const text of ['+033658-09-27T01:46:40Z', '2027-02-30T00:00:00Z', '2027-01-01T00:00:00']) {
      expect((await detailsOf(text))[0]).toMatchObject({ constraint: 'isIsoDateTime' });
    }
    expect(await detailsOf(new Date(Date.now() - 60_000).toISOString())).toEqual([
      {
        field: 'expiresAt',
        constraint: 'isFutureDate',
        message: 'expiresAt must be in the future',
      },
    ]);
    for (const far of ['9999-12-31T23:59:59Z', new Date(Date.now() + 731 * day).toISOString()]) {
      expect(await detailsOf(far)).toEqual([
        {
          field: 'expiresAt',
          constraint: 'maxLifetime',
          message: expect.stringMatching(
            /^expiresAt must be at most 730 days from now \(the longest key lifetime here\): \S+Z or earlier$/,
          ),
        },
      ]);
    }

    // Inside the window: a date-time with any offset, or a date (midnight UTC), as the dashboard sends.
    const inAYear = new Date(Date.now() + 365 * day);
    const exact = await create(inAYear.toISOString()).expect(201);
    expect(exact.body.expiresAt).toBe(inAYear.toISOString());
    const lastDay = new Date(Date.now() + 729 * day).toISOString().slice(0, 10);
    expect((await create(`${lastDay}T23:59:59Z`).expect(201)).body.expiresAt).toBe(
      `${lastDay}T23:59:59.000Z`,
    );
    expect((await create(lastDay).expect(201)).body.expiresAt).toBe(`${lastDay}T00:00:00.000Z`);
    const inAMonth = new Date(Math.floor((Date.now() + 30 * day) / 1000) * 1000);
    const atMinus0530 = new Date(inAMonth.getTime() - 5.5 * 3_600_000).toISOString().slice(0, 19);
    expect((await create(`${atMinus0530}-05:30`).expect(201)).body.expiresAt).toBe(
      inAMonth.toISOString(),
    );
  });

  it('refuses key names with control, bidi or invisible characters, naming the field', async () => {
    for (const name of [
      'invoice\u202Egpj.exe',
      'a\u2066b',
      'ad\u200Bmin',
      '\uFEFFkey',
      'k\u0000',
      'k\r\nx',
    ]) {
      const res = await as(token)
        .post('/api/v1/api-keys')
        .send({ name, scopes: ['usage:read'] })
        .expect(400);
      expect(res.body).toMatchObject({ code: 'INVALID_PARAMS', phase: 'validation' });
      expect(res.body.details).toEqual([
        {
          field: 'name',
          constraint: 'isPrintableName',
          message: expect.stringMatching(
            /^name contains U\+[0-9A-F]{4}; names may not hold control characters .*bidirectional overrides/,
          ),
        },
      ]);
    }
    const fine = await as(token)
      .post('/api/v1/api-keys')
      .send({ name: 'Zoë’s 東京 deploy 🚀', scopes: ['usage:read'] })
      .expect(201);
    expect(fine.body.name).toBe('Zoë’s 東京 deploy 🚀');
  });

  it("revokes (idempotently) and hides other accounts' keys (BOLA -> 404)", async () => {
    const key = await createApiKey(t, token, ['defi:swap']);
    const foreign = await as(otherToken).delete(`/api/v1/api-keys/${key.id}`).expect(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect(
      (await as(otherToken).get('/api/v1/api-keys')).body.items.map((k: { id: string }) => k.id),
    ).not.toContain(key.id);
    await as(token).delete('/api/v1/api-keys/not-a-uuid').expect(404);
    const revoked = await as(token).delete(`/api/v1/api-keys/${key.id}`).expect(200);
    expect(revoked.body).toMatchObject({
      authMethod: 'jwt',
      id: key.id,
      active: false,
      revokedAt: expect.any(String),
    });
    await as(token).delete(`/api/v1/api-keys/${key.id}`).expect(200);
    // Still usable by the other account? Never: the key is revoked for everyone.
    const res = await request(t.server)
      .get('/api/v1/usage/stats')
      .set('X-API-Key', key.key)
      .expect(401);
    expect(res.body.code).toBe('API_KEY_INACTIVE');
  });

  it('needs a login: no credentials -> API_KEY_MISSING', async () => {
    expect((await request(t.server).get('/api/v1/api-keys').expect(401)).body.code).toBe(
      'API_KEY_MISSING',
    );
  });
});

describe('OpenAPI security documentation', () => {
  it('documents both schemes, the scope and the auth responses on protected routes', async () => {
    const t = await createTestApp();
    try {
      const doc = (await request(t.server).get('/docs/json').expect(200)).body;
      const stats = doc.paths['/api/v1/usage/stats'].get;
      expect(stats.security).toEqual(expect.arrayContaining([{ 'api-key': [] }, { jwt: [] }]));
      expect(stats['x-required-scope']).toBe('usage:read');
      expect(Object.keys(stats.responses)).toEqual(
        expect.arrayContaining(['200', '401', '403', '429']),
      );
      const create = doc.paths['/api/v1/api-keys'].post;
      expect(create.security).toEqual([{ jwt: [] }]);
      // Login is public; it is documented once, under /api/v1, naming its /auth/login alias.
      expect(doc.paths['/api/v1/auth/login'].post.security).toBeUndefined();
      expect(doc.paths['/api/v1/auth/login'].post.description).toContain('POST /auth/login');
    } finally {
      await t.close();
    }
  });
});
