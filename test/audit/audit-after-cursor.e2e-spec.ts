import request from 'supertest';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';

/**
 * Issue 47: a SIEM polls the audit trail with `after=<the last event id it received>`: the events
 * written since, oldest first, with the other filters, never another account's; and the newest-
 * first listing with its cursor still pages the same trail (both ordered by (at, seq)).
 */
describe('AuditEventsService: the ascending after= cursor', () => {
  let t: TestApp;
  let account: TestAccount;
  let token: string;
  let siemKey: string;

  const list = (query: Record<string, string | number>, key = siemKey) =>
    request(t.server).get('/api/v1/audit-events').query(query).set('X-API-Key', key);
  const types = (body: { items: Array<{ type: string }> }) => body.items.map((e) => e.type);

  beforeAll(async () => {
    t = await createTestApp();
    account = await t.createAccount();
    token = await login(t, account);
    siemKey = (await createApiKey(t, token, ['audit:read'], { name: 'siem' })).key;
  });
  afterAll(() => t?.close());

  it('lists the events written after the given one, oldest first, then nothing new', async () => {
    const start = await list({ limit: 1 }).expect(200);
    const last = start.body.items[0] as { id: string; type: string };
    expect(last.type).toBe('api_key.created');

    for (let i = 0; i < 3; i++) await createApiKey(t, token, ['usage:read'], { name: `new${i}` });
    const page = await list({ after: last.id, limit: 2 }).expect(200);
    expect(types(page.body)).toEqual(['api_key.created', 'api_key.created']);
    expect(page.body.items.map((e: { data: { name: string } }) => e.data.name)).toEqual([
      'new0',
      'new1',
    ]);
    expect(page.body.nextCursor).toBeNull();

    const rest = await list({ after: page.body.items[1].id }).expect(200);
    expect(rest.body.items.map((e: { data: { name: string } }) => e.data.name)).toEqual(['new2']);
    const caughtUp = await list({ after: rest.body.items[0].id }).expect(200);
    expect(caughtUp.body.items).toEqual([]);

    // The same events newest first, through the descending cursor.
    const newest = await list({ limit: 2 }).expect(200);
    const older = await list({ limit: 2, cursor: newest.body.nextCursor }).expect(200);
    expect(
      [...newest.body.items, ...older.body.items].map(
        (e: { data: { name: string } }) => e.data.name,
      ),
    ).toEqual(['new2', 'new1', 'new0', 'siem']);
  });

  it('combines after with the type filter', async () => {
    const first = await list({ limit: 200 }).expect(200);
    const oldest = first.body.items[first.body.items.length - 1] as { id: string; type: string };
    expect(oldest.type).toBe('auth.login_succeeded'); // the setup's sign-in
    await login(t, account);
    await login(t, account);
    const logins = await list({ after: oldest.id, type: 'auth.login_succeeded' }).expect(200);
    expect(types(logins.body)).toEqual(['auth.login_succeeded', 'auth.login_succeeded']);
    const ats = logins.body.items.map((e: { at: string }) => e.at);
    expect([...ats].sort()).toEqual(ats);
  });

  it('refuses an unknown id, another account event, and after with cursor', async () => {
    const other = await t.createAccount();
    const otherToken = await login(t, other);
    const otherEvent = await request(t.server)
      .get('/api/v1/audit-events')
      .query({ limit: 1 })
      .set('Authorization', `Bearer ${otherToken}`)
      .expect(200);
    const foreign = await list({ after: otherEvent.body.items[0].id }).expect(400);
    expect(foreign.body).toMatchObject({
      code: 'INVALID_PARAMS',
      details: [expect.objectContaining({ field: 'after' })],
    });
    const unknown = await list({ after: '3fa85f64-5717-4562-b3fc-2c963f66afa6' }).expect(400);
    // Another account's id and an unknown one answer alike: nothing to learn from the difference.
    expect(unknown.body.message).toBe(foreign.body.message);
    await list({ after: 'not-an-id' }).expect(400);

    const page = await list({ limit: 1 }).expect(200);
    const both = await list({ after: page.body.items[0].id, cursor: page.body.nextCursor });
    expect(both.status).toBe(400);
    expect(both.body.details[0].field).toBe('after');
  });
});
