import request from 'supertest';
import { createTestApp, TEST_PASSWORD, TestAccount, TestApp } from '../helpers/app';
import { login, loginPair } from '../helpers/auth';

const INVITE_TOKEN = /^inv_[A-Za-z0-9_-]{43}$/;
const HOUR_MS = 60 * 60 * 1000;

/**
 * Issue 33 done-when 1: an owner invites a viewer and a developer who accept by the endpoint; the
 * viewer reads but changes nothing, the developer creates keys but manages no members, a removed
 * member's tokens stop at once, and another account sees none of it.
 */
describe('Members, roles and invitations (MembersController, InvitationsController)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let ownerToken: string;
  let otherToken: string;
  const viewer = { email: `viewer-${Date.now()}@example.com`, password: TEST_PASSWORD };
  const developer = { email: `dev-${Date.now()}@example.com`, password: TEST_PASSWORD };
  let viewerToken: string;
  let developerPair: { accessToken: string; refreshToken: string };
  let viewerId: string;
  let developerId: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount({ plan: 'pro' });
    ownerToken = await login(t, owner);
    otherToken = await login(t, await t.createAccount());
  });
  afterAll(() => t.close());

  const as = (bearer: string) => {
    const auth = (r: request.Test) => r.set('Authorization', `Bearer ${bearer}`);
    return {
      get: (path: string) => auth(request(t.server).get(path)),
      post: (path: string) => auth(request(t.server).post(path)),
      patch: (path: string) => auth(request(t.server).patch(path)),
      delete: (path: string) => auth(request(t.server).delete(path)),
    };
  };

  async function invite(email: string, role: string): Promise<string> {
    const res = await as(ownerToken)
      .post('/api/v1/account/invitations')
      .send({ email, role })
      .expect(201);
    return res.body.token as string;
  }

  function expectRoleForbidden(res: request.Response, role: string, required: string[]): void {
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'ROLE_FORBIDDEN', phase: 'auth' });
    expect(res.body.details[0]).toMatchObject({ role, required });
    for (const needed of required) expect(res.body.message).toContain(needed);
    expect(res.body.hint).toMatch(/owner or admin/);
  }

  it('answers /auth/me with the user, their role and the account limits', async () => {
    const res = await as(ownerToken).get('/api/v1/auth/me').expect(200);
    expect(res.body).toEqual({
      authMethod: 'jwt',
      user: { id: owner.userId, email: owner.email, role: 'owner', mfaEnabled: false },
      account: {
        id: owner.accountId,
        name: expect.any(String),
        plan: 'pro',
        monthlyQuota: 1_000_000,
        rateLimitPerMinute: 1_200,
      },
    });
  });

  it('invites with a single-use token shown once, and lists pending invitations without it', async () => {
    const before = Date.now();
    const res = await as(ownerToken)
      .post('/api/v1/account/invitations')
      .send({ email: viewer.email.toUpperCase(), role: 'viewer' })
      .expect(201);
    expect(res.body).toMatchObject({
      authMethod: 'jwt',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: viewer.email,
      role: 'viewer',
      invitedByUserId: owner.userId,
      mailed: false,
      token: expect.stringMatching(INVITE_TOKEN),
    });
    expect(res.body.link).toBe(`/dashboard/#accept-invitation=${res.body.token}`);
    const ttl = Date.parse(res.body.expiresAt) - before;
    expect(ttl).toBeGreaterThanOrEqual(168 * HOUR_MS - 1_000);
    expect(ttl).toBeLessThanOrEqual(168 * HOUR_MS + 60_000);

    const list = await as(ownerToken).get('/api/v1/account/invitations').expect(200);
    expect(list.body.items.map((i: { id: string }) => i.id)).toContain(res.body.id);
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);

    // What the invitee's page shows before they choose a password: spends nothing.
    const me = await as(ownerToken).get('/api/v1/auth/me').expect(200);
    for (let i = 0; i < 2; i += 1) {
      const preview = await request(t.server)
        .post('/auth/invitations/preview')
        .send({ token: res.body.token })
        .expect(200);
      expect(preview.body).toEqual({
        accountName: me.body.account.name,
        email: viewer.email,
        role: 'viewer',
        expiresAt: res.body.expiresAt,
      });
    }

    const accepted = await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token: res.body.token, password: viewer.password })
      .expect(201);
    // A spent token shows nothing any more.
    const spent = await request(t.server)
      .post('/api/v1/auth/invitations/preview')
      .send({ token: res.body.token })
      .expect(404);
    expect(spent.body).toMatchObject({ code: 'NOT_FOUND' });
    const malformed = await request(t.server)
      .post('/auth/invitations/preview')
      .send({ token: 'not-a-token' })
      .expect(400);
    expect(malformed.body).toMatchObject({ code: 'INVALID_PARAMS', phase: 'validation' });
    expect(accepted.body).toMatchObject({
      email: viewer.email,
      role: 'viewer',
      next: '/auth/login',
    });
    // Single use, and gone from the pending list.
    const again = await request(t.server)
      .post('/api/v1/auth/invitations/accept')
      .send({ token: res.body.token, password: viewer.password })
      .expect(404);
    expect(again.body).toMatchObject({ code: 'NOT_FOUND', phase: 'validation' });
    const after = await as(ownerToken).get('/api/v1/account/invitations').expect(200);
    expect(after.body.items.map((i: { id: string }) => i.id)).not.toContain(res.body.id);
    viewerToken = await login(t, viewer);
    viewerId = (await as(viewerToken).get('/api/v1/auth/me').expect(200)).body.user.id;
  });

  it('refuses a short password, an unknown token and a revoked invitation', async () => {
    const token = await invite(developer.email, 'developer');
    const short = await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token, password: 'short' })
      .expect(400);
    expect(short.body.code).toBe('INVALID_PARAMS');
    expect(short.body.details[0].field).toBe('password');
    await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token: `inv_${'A'.repeat(43)}`, password: developer.password })
      .expect(404);

    const revoked = await as(ownerToken)
      .post('/api/v1/account/invitations')
      .send({ email: `gone-${Date.now()}@example.com`, role: 'viewer' })
      .expect(201);
    await as(ownerToken).delete(`/api/v1/account/invitations/${revoked.body.id}`).expect(200);
    await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token: revoked.body.token, password: TEST_PASSWORD })
      .expect(404);

    // A second invitation to the same email replaces the first: only the newest token works.
    const newest = await invite(developer.email, 'developer');
    await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token, password: developer.password })
      .expect(404);
    const accepted = await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token: newest, password: developer.password })
      .expect(201);
    expect(accepted.body).toMatchObject({ email: developer.email, role: 'developer' });
    developerPair = await loginPair(t, developer);
    developerId = (await as(developerPair.accessToken).get('/api/v1/auth/me').expect(200)).body.user
      .id;
  });

  it('creates no second login for an email another account already has', async () => {
    const elsewhere = await t.createAccount();
    // Neither inviting nor accepting tells whether the email exists elsewhere (issue 46), and
    // accepting creates nothing for it: the same answer as for a free email, and the token is spent.
    const token = await invite(elsewhere.email, 'viewer');
    const password = 'the inviter chose this one';
    const res = await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token, password })
      .expect(201);
    expect(res.body).toMatchObject({ email: elsewhere.email, role: 'viewer', next: '/auth/login' });
    await request(t.server).post('/auth/invitations/accept').send({ token, password }).expect(404);
    await request(t.server)
      .post('/auth/login')
      .send({ email: elsewhere.email, password })
      .expect(401);
    const me = await as(await login(t, elsewhere))
      .get('/api/v1/auth/me')
      .expect(200);
    expect(me.body.account.id).toBe(elsewhere.accountId);
  });

  it('refuses to invite someone who is already a member', async () => {
    const res = await as(ownerToken)
      .post('/api/v1/account/invitations')
      .send({ email: developer.email, role: 'viewer' })
      .expect(400);
    expect(res.body.details[0]).toMatchObject({ field: 'email', constraint: 'notMember' });
  });

  it('lets the viewer read keys, usage and members, and refuses every change', async () => {
    const me = await as(viewerToken).get('/api/v1/auth/me').expect(200);
    expect(me.body.user).toMatchObject({ id: viewerId, role: 'viewer' });
    await as(viewerToken).get('/api/v1/api-keys').expect(200);
    await as(viewerToken).get('/api/v1/usage/stats').expect(200);
    const members = await as(viewerToken).get('/api/v1/account/members').expect(200);
    expect(members.body.items).toHaveLength(3);

    const create = await as(viewerToken)
      .post('/api/v1/api-keys')
      .send({ name: 'nope', scopes: ['usage:read'] });
    expectRoleForbidden(create, 'viewer', ['owner', 'admin', 'developer']);
    const inviting = await as(viewerToken)
      .post('/api/v1/account/invitations')
      .send({ email: 'x@example.com', role: 'viewer' });
    expectRoleForbidden(inviting, 'viewer', ['owner', 'admin']);
    const listing = await as(viewerToken).get('/api/v1/account/invitations');
    expectRoleForbidden(listing, 'viewer', ['owner', 'admin']);
  });

  it('lets the developer create and edit keys within its scopes, but not invite', async () => {
    const key = await as(developerPair.accessToken)
      .post('/api/v1/api-keys')
      .send({ name: 'dev key', scopes: ['defi:swap', 'usage:read'] })
      .expect(201);
    expect(key.body.createdByUserId).toBe(developerId);
    await as(developerPair.accessToken)
      .patch(`/api/v1/api-keys/${key.body.id}`)
      .send({ name: 'dev key (renamed)' })
      .expect(200);

    const audit = await as(developerPair.accessToken)
      .post('/api/v1/api-keys')
      .send({ name: 'siem', scopes: ['audit:read'] });
    expectRoleForbidden(audit, 'developer', ['owner', 'admin']);
    expect(audit.body.details[0].scopes).toEqual(['audit:read']);
    // A key holding audit:read (the owner's) is not the developer's to edit.
    const siem = await as(ownerToken)
      .post('/api/v1/api-keys')
      .send({ name: 'siem', scopes: ['audit:read'] })
      .expect(201);
    const edit = await as(developerPair.accessToken)
      .patch(`/api/v1/api-keys/${siem.body.id}`)
      .send({ name: 'mine now' });
    expectRoleForbidden(edit, 'developer', ['owner', 'admin']);

    const inviting = await as(developerPair.accessToken)
      .post('/api/v1/account/invitations')
      .send({ email: 'y@example.com', role: 'viewer' });
    expectRoleForbidden(inviting, 'developer', ['owner', 'admin']);
    const promote = await as(developerPair.accessToken)
      .patch(`/api/v1/account/members/${developerId}`)
      .send({ role: 'admin' });
    expectRoleForbidden(promote, 'developer', ['owner', 'admin']);
  });

  it('lists the members with their roles, oldest first', async () => {
    const res = await as(ownerToken).get('/api/v1/account/members').expect(200);
    expect(res.body.items).toEqual([
      { userId: owner.userId, email: owner.email, role: 'owner', joinedAt: expect.any(String) },
      { userId: viewerId, email: viewer.email, role: 'viewer', joinedAt: expect.any(String) },
      {
        userId: developerId,
        email: developer.email,
        role: 'developer',
        joinedAt: expect.any(String),
      },
    ]);
  });

  it('shows another account none of it (404)', async () => {
    const members = await as(otherToken).get('/api/v1/account/members').expect(200);
    expect(members.body.items).toHaveLength(1);
    for (const res of [
      await as(otherToken).patch(`/api/v1/account/members/${developerId}`).send({ role: 'viewer' }),
      await as(otherToken).delete(`/api/v1/account/members/${developerId}`),
      await as(otherToken).delete(`/api/v1/account/members/not-a-uuid`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const pending = await as(ownerToken)
      .post('/api/v1/account/invitations')
      .send({ email: `pending-${Date.now()}@example.com`, role: 'viewer' })
      .expect(201);
    await as(otherToken).delete(`/api/v1/account/invitations/${pending.body.id}`).expect(404);
    const theirs = await as(otherToken).get('/api/v1/account/invitations').expect(200);
    expect(theirs.body.items).toEqual([]);
    const keys = await as(otherToken).get('/api/v1/api-keys').expect(200);
    expect(keys.body.items).toEqual([]);
  });

  it('applies a role change to the next request', async () => {
    await as(ownerToken)
      .patch(`/api/v1/account/members/${viewerId}`)
      .send({ role: 'developer' })
      .expect(200)
      .expect((res) => expect(res.body).toMatchObject({ userId: viewerId, role: 'developer' }));
    await as(viewerToken)
      .post('/api/v1/api-keys')
      .send({ name: 'now allowed', scopes: ['usage:read'] })
      .expect(201);
    await as(ownerToken)
      .patch(`/api/v1/account/members/${viewerId}`)
      .send({ role: 'viewer' })
      .expect(200);
    const refused = await as(viewerToken)
      .post('/api/v1/api-keys')
      .send({ name: 'refused again', scopes: ['usage:read'] });
    expect(refused.status).toBe(403);
  });

  it('keeps owner and admin grants to the owner; an admin manages developers and viewers', async () => {
    await as(ownerToken)
      .patch(`/api/v1/account/members/${viewerId}`)
      .send({ role: 'admin' })
      .expect(200);
    const adminToken = viewerToken;
    const grant = await as(adminToken)
      .patch(`/api/v1/account/members/${developerId}`)
      .send({ role: 'admin' });
    expectRoleForbidden(grant, 'admin', ['owner']);
    const inviteAdmin = await as(adminToken)
      .post('/api/v1/account/invitations')
      .send({ email: `admin-${Date.now()}@example.com`, role: 'admin' });
    expectRoleForbidden(inviteAdmin, 'admin', ['owner']);
    const demoteOwner = await as(adminToken)
      .patch(`/api/v1/account/members/${owner.userId}`)
      .send({ role: 'viewer' })
      .expect(400);
    expect(demoteOwner.body.details[0].constraint).toBe('ownerTransfer');
    await as(adminToken)
      .post('/api/v1/account/invitations')
      .send({ email: `by-admin-${Date.now()}@example.com`, role: 'developer' })
      .expect(201);
    await as(adminToken)
      .patch(`/api/v1/account/members/${developerId}`)
      .send({ role: 'viewer' })
      .expect(200);
    await as(adminToken)
      .patch(`/api/v1/account/members/${developerId}`)
      .send({ role: 'developer' })
      .expect(200);
    const removeOwner = await as(adminToken)
      .delete(`/api/v1/account/members/${owner.userId}`)
      .expect(400);
    expect(removeOwner.body.details[0].constraint).toBe('notOwner');
  });

  it('removing the developer ends their access and refresh tokens at once', async () => {
    await as(developerPair.accessToken).get('/api/v1/auth/me').expect(200);
    await as(ownerToken).delete(`/api/v1/account/members/${developerId}`).expect(204);

    const access = await as(developerPair.accessToken).get('/api/v1/api-keys').expect(401);
    expect(access.body.code).toBe('JWT_INVALID');
    const refreshed = await request(t.server)
      .post('/auth/refresh')
      .send({ refreshToken: developerPair.refreshToken })
      .expect(401);
    expect(refreshed.body.code).toBe('JWT_INVALID');
    await request(t.server)
      .post('/auth/login')
      .send(developer)
      .expect(401)
      .expect((res) => expect(res.body.code).toBe('INVALID_CREDENTIALS'));
    const members = await as(ownerToken).get('/api/v1/account/members').expect(200);
    expect(members.body.items.map((m: { userId: string }) => m.userId)).not.toContain(developerId);
    await as(ownerToken).delete(`/api/v1/account/members/${developerId}`).expect(404);
  });

  it('transfers ownership: the new owner leads, the previous one becomes admin', async () => {
    const adminId = viewerId;
    const notOwner = await as(viewerToken)
      .patch(`/api/v1/account/members/${adminId}`)
      .send({ role: 'owner' });
    expectRoleForbidden(notOwner, 'admin', ['owner']);

    await as(ownerToken)
      .patch(`/api/v1/account/members/${adminId}`)
      .send({ role: 'owner' })
      .expect(200)
      .expect((res) => expect(res.body.role).toBe('owner'));
    const previous = await as(ownerToken).get('/api/v1/auth/me').expect(200);
    expect(previous.body.user.role).toBe('admin');
    const current = await as(viewerToken).get('/api/v1/auth/me').expect(200);
    expect(current.body.user.role).toBe('owner');
    const roles = (await as(viewerToken).get('/api/v1/account/members').expect(200)).body.items
      .map((m: { role: string }) => m.role)
      .sort();
    expect(roles).toEqual(['admin', 'owner']);
  });

  it('records each change once in the audit trail, with the actor, IP and request id', async () => {
    // viewerToken belongs to the account's owner now.
    const res = await as(viewerToken).get('/api/v1/audit-events?limit=100').expect(200);
    type Event = {
      type: string;
      actor: { type: string; id: string | null };
      target: { type: string; id: string } | null;
      ip: string | null;
      requestId: string | null;
      data: Record<string, unknown>;
    };
    const events = res.body.items as Event[];
    const of = (type: string) => events.filter((e) => e.type === type);
    const [removed] = of('member.removed');
    expect(of('member.removed')).toHaveLength(1);
    expect(removed).toMatchObject({
      actor: { type: 'user', id: owner.userId },
      target: { type: 'user', id: developerId },
      data: { email: developer.email, role: 'developer' },
      ip: expect.any(String),
      requestId: expect.any(String),
    });
    expect(of('account.ownership_transferred')).toEqual([
      expect.objectContaining({
        actor: { type: 'user', id: owner.userId },
        target: { type: 'user', id: viewerId },
        data: expect.objectContaining({ previousOwnerUserId: owner.userId }),
      }),
    ]);
    expect(of('member.joined').map((e) => e.target?.id)).toEqual([developerId, viewerId]);
    expect(of('member.role_changed')).toHaveLength(5);
    expect(of('member.invited').map((e) => e.data.role)).toEqual(
      expect.arrayContaining(['viewer', 'developer']),
    );
    const updated = of('api_key.updated');
    expect(updated).toEqual([
      expect.objectContaining({
        actor: { type: 'user', id: developerId },
        data: expect.objectContaining({ name: 'dev key (renamed)', changed: ['name'] }),
      }),
    ]);
    expect(of('api_key.created')).toHaveLength(3);
    // Invitation tokens and passwords never reach the trail.
    expect(JSON.stringify(events)).not.toMatch(/inv_|password|correct horse/);
  });
});
