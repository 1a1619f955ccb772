/**
 * The compliance policy's contract (issues 52 and 53): every malformed body is 400 INVALID_PARAMS
 * naming the field, on PUT and on evaluate (no 500 from normalization); the required members are
 * required; GET's answer PUTs back unchanged (read-only members ignored); each PUT is a version
 * (1 on the first, +1 each, in the audit event and in evaluate); concurrent first PUTs all
 * answer 200, serialized on the account's row (PostgreSQL: the race that answered 500).
 */
import request from 'supertest';
import { createApiKey, login } from '../helpers/auth';
import { useDefiSuite } from '../helpers/defi';

describe('CompliancePolicyService: PUT, GET and evaluate /api/v1/compliance/policy', () => {
  const suite = useDefiSuite();
  const valid = { sources: { mode: 'any', names: [] }, countries: {}, minSessionSeconds: 0 };
  const WALLET = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

  const freshToken = async () => login(suite.t, await suite.t.createAccount());
  const put = (token: string, body: unknown) =>
    request(suite.t.server)
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);
  const get = (token: string) =>
    request(suite.t.server)
      .get('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${token}`);
  const evaluate = (token: string, body: object) =>
    request(suite.t.server)
      .post('/api/v1/compliance/policy/evaluate')
      .set('Authorization', `Bearer ${token}`)
      .send(body);

  // [what is wrong, the body, the field details must name]
  const malformed: Array<[string, Record<string, unknown>, string]> = [
    ['sources missing', { countries: {}, minSessionSeconds: 0 }, 'sources'],
    ['sources null', { ...valid, sources: null }, 'sources'],
    ['sources []', { ...valid, sources: [] }, 'sources'],
    ['sources a string', { ...valid, sources: 'any' }, 'sources'],
    ['sources.names missing', { ...valid, sources: { mode: 'any' } }, 'sources.names'],
    ['sources.names null', { ...valid, sources: { mode: 'any', names: null } }, 'sources.names'],
    ['sources.mode missing', { ...valid, sources: { names: [] } }, 'sources.mode'],
    ['countries missing', { sources: valid.sources, minSessionSeconds: 0 }, 'countries'],
    ['countries null', { ...valid, countries: null }, 'countries'],
    ['countries []', { ...valid, countries: [] }, 'countries'],
    ['countries.allow null', { ...valid, countries: { allow: null } }, 'countries.allow'],
    ['countries.deny null', { ...valid, countries: { deny: null } }, 'countries.deny'],
    ['countries.deny [null]', { ...valid, countries: { deny: [null] } }, 'countries.deny'],
    ['countries.deny ["KPX"]', { ...valid, countries: { deny: ['KPX'] } }, 'countries.deny'],
    ['countries.allow a string', { ...valid, countries: { allow: 'FR' } }, 'countries.allow'],
    ['countries.unknown null', { ...valid, countries: { unknown: null } }, 'countries.unknown'],
    [
      'countries.unknown "maybe"',
      { ...valid, countries: { unknown: 'maybe' } },
      'countries.unknown',
    ],
    ['minSessionSeconds missing', { sources: valid.sources, countries: {} }, 'minSessionSeconds'],
    ['minSessionSeconds null', { ...valid, minSessionSeconds: null }, 'minSessionSeconds'],
    ['a member nobody knows', { ...valid, trade: {} }, 'trade'],
    ['countries.other', { ...valid, countries: { other: ['FR'] } }, 'countries.other'],
  ];

  it.each(malformed)(
    '%s: 400 INVALID_PARAMS naming the field on PUT and on evaluate, nothing stored',
    async (_what, body, field) => {
      const token = await freshToken();
      const onPut = await put(token, body).expect(400);
      expect(onPut.body).toMatchObject({ code: 'INVALID_PARAMS', phase: 'validation' });
      expect(onPut.body.details).toContainEqual(expect.objectContaining({ field }));
      const onEvaluate = await evaluate(token, { walletAddress: WALLET, policy: body }).expect(400);
      expect(onEvaluate.body).toMatchObject({ code: 'INVALID_PARAMS', phase: 'validation' });
      expect(onEvaluate.body.details).toContainEqual(
        expect.objectContaining({ field: `policy.${field}` }),
      );
      // Nothing was written: the account keeps the default policy.
      expect((await get(token).expect(200)).body).toMatchObject({ version: 0, updatedAt: null });
    },
  );

  it('evaluate refuses a null draft (absent means the account policy)', async () => {
    const token = await freshToken();
    const res = await evaluate(token, { walletAddress: WALLET, policy: null }).expect(400);
    expect(res.body.details).toContainEqual(expect.objectContaining({ field: 'policy' }));
  });

  it("GET's answer PUTs back unchanged (read-only members ignored); each PUT is the next version, in GET, the audit event and evaluate", async () => {
    const token = await freshToken();
    const initial = (await get(token).expect(200)).body;
    expect(initial).toMatchObject({ ...valid, version: 0, updatedAt: null, authMethod: 'jwt' });
    expect(initial.knownSources).toEqual(
      expect.arrayContaining([{ name: 'verified-account', kind: 'account' }]),
    );

    // The default policy's answer, sent back as is: version 1.
    const first = (await put(token, initial).expect(200)).body;
    expect(first).toMatchObject({ ...valid, version: 1, updatedAt: expect.any(String) });

    // Read-modify-write: deny KP; the fail-closed default for an unknown country is written out.
    const second = (await put(token, { ...first, countries: { deny: ['kp'] } }).expect(200)).body;
    expect(second).toMatchObject({
      countries: { deny: ['KP'], unknown: 'refuse' },
      version: 2,
    });
    const read = (await get(token).expect(200)).body;
    expect(read).toEqual({ ...second, authMethod: 'jwt' });

    // The same answer again: the rules are unchanged, the version moves on.
    const third = (await put(token, read).expect(200)).body;
    expect(third).toMatchObject({ countries: read.countries, sources: read.sources, version: 3 });
    expect(third.updatedAt >= read.updatedAt).toBe(true);

    // An API key (evaluate's scope) sees the version of the policy it was judged against.
    const key = (await createApiKey(suite.t, token, ['compliance:verify'])).key;
    const judged = await request(suite.t.server)
      .post('/api/v1/compliance/policy/evaluate')
      .set('X-API-Key', key)
      .send({ walletAddress: WALLET })
      .expect(200);
    expect(judged.body).toMatchObject({
      version: 3,
      allowed: false,
      decidingRule: 'sources.any',
    });
    const draft = await evaluate(token, { walletAddress: WALLET, policy: read }).expect(200);
    expect(draft.body.version).toBeNull();

    const audit = await request(suite.t.server)
      .get('/api/v1/audit-events')
      .query({ type: 'compliance.policy_updated' })
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const events = audit.body.items as Array<{
      data: { version: number; from: object; to: object };
    }>;
    expect(events.map((e) => e.data.version).sort()).toEqual([1, 2, 3]);
    const v2 = events.find((e) => e.data.version === 2)!;
    expect(v2.data).toMatchObject({
      from: valid,
      to: { countries: { deny: ['KP'], unknown: 'refuse' } },
    });
  });

  it('countries.unknown is kept as sent, and left out without a list', async () => {
    const token = await freshToken();
    const open = await put(token, {
      ...valid,
      countries: { deny: ['KP'], unknown: 'allow' },
    }).expect(200);
    expect(open.body.countries).toEqual({ deny: ['KP'], unknown: 'allow' });
    const none = await put(token, valid).expect(200);
    expect(none.body.countries).toEqual({});
  });

  it('six concurrent first PUTs of one account: all 200, versions 1 to 6, the last committed is the policy, each event follows the one before', async () => {
    const token = await freshToken();
    const bodies = [1, 2, 3, 4, 5, 6].map((n) => ({ ...valid, minSessionSeconds: n * 60 }));
    const answers = await Promise.all(bodies.map((body) => put(token, body)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const versions = answers.map((a) => a.body.version as number);
    expect([...versions].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const last = answers.find((a) => a.body.version === 6)!.body;
    const current = (await get(token).expect(200)).body;
    expect(current).toMatchObject({ version: 6, minSessionSeconds: last.minSessionSeconds });

    const audit = await request(suite.t.server)
      .get('/api/v1/audit-events')
      .query({ type: 'compliance.policy_updated' })
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const byVersion = new Map(
      (
        audit.body.items as Array<{
          data: {
            version: number;
            from: { minSessionSeconds: number };
            to: { minSessionSeconds: number };
          };
        }>
      ).map((e) => [e.data.version, e.data]),
    );
    expect(byVersion.size).toBe(6);
    for (let v = 2; v <= 6; v++)
      expect(byVersion.get(v)!.from.minSessionSeconds).toBe(
        byVersion.get(v - 1)!.to.minSessionSeconds,
      );
  });
});
