import request from 'supertest';
import { createTestApp, TEST_PASSWORD, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { joinAs } from '../helpers/members';

/**
 * Issue 46 findings 3 and 4: revoking a key applies the role limits of create and edit, and a
 * removed or demoted member's pending invitations that their new role could not make are revoked,
 * each recorded in the audit trail.
 */
describe('Role limits on key revocation, and invitations that die with their inviter', () => {
  let t: TestApp;
  let owner: TestAccount;
  let ownerToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createAccount({ plan: 'pro' });
    ownerToken = await login(t, owner);
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

  it('refuses a developer revoking a key with audit:read, and a viewer revoking any key', async () => {
    const developer = await joinAs(t, ownerToken, 'developer');
    const viewer = await joinAs(t, ownerToken, 'viewer');
    const auditKey = await createApiKey(t, ownerToken, ['audit:read', 'usage:read']);
    const plainKey = await createApiKey(t, ownerToken, ['usage:read']);

    const refused = await as(developer.token).delete(`/api/v1/api-keys/${auditKey.id}`).expect(403);
    expect(refused.body).toMatchObject({
      code: 'ROLE_FORBIDDEN',
      phase: 'auth',
      details: [{ role: 'developer', required: ['owner', 'admin'], scopes: ['audit:read'] }],
    });
    expect(refused.body.message).toContain('audit:read');
    await request(t.server).get('/api/v1/audit-events').set('X-API-Key', auditKey.key).expect(200);

    const byViewer = await as(viewer.token).delete(`/api/v1/api-keys/${plainKey.id}`).expect(403);
    expect(byViewer.body).toMatchObject({ code: 'ROLE_FORBIDDEN', phase: 'auth' });

    const revoked = await as(developer.token).delete(`/api/v1/api-keys/${plainKey.id}`).expect(200);
    expect(revoked.body).toMatchObject({ id: plainKey.id, active: false });
    await as(ownerToken).delete(`/api/v1/api-keys/${auditKey.id}`).expect(200);
  });

  async function inviteAs(token: string, role: string) {
    const email = `invitee-${role}-${Math.random().toString(36).slice(2)}@example.com`;
    const res = await as(token)
      .post('/api/v1/account/invitations')
      .send({ email, role })
      .expect(201);
    return { email, id: res.body.id as string, token: res.body.token as string };
  }

  async function expectDead(invitationToken: string) {
    const res = await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token: invitationToken, password: TEST_PASSWORD })
      .expect(404);
    expect(res.body.code).toBe('NOT_FOUND');
  }

  async function revocations(invitationId: string) {
    const res = await as(ownerToken)
      .get('/api/v1/audit-events?type=member.invitation_revoked')
      .expect(200);
    return (res.body.items as { target: { id: string }; data: Record<string, unknown> }[]).filter(
      (event) => event.target.id === invitationId,
    );
  }

  it("revokes a removed admin's pending invitations and records each", async () => {
    const admin = await joinAs(t, ownerToken, 'admin');
    const invited = await inviteAs(admin.token, 'developer');
    await as(ownerToken).delete(`/api/v1/account/members/${admin.userId}`).expect(204);

    await expectDead(invited.token);
    const events = await revocations(invited.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      email: invited.email,
      role: 'developer',
      reason: 'inviter_removed',
      invitedByUserId: admin.userId,
    });
    const pending = await as(ownerToken).get('/api/v1/account/invitations').expect(200);
    expect(pending.body.items.map((i: { id: string }) => i.id)).not.toContain(invited.id);
  });

  it("revokes a demoted admin's invitations their new role could not make, and keeps the rest", async () => {
    const admin = await joinAs(t, ownerToken, 'admin');
    const toViewer = await inviteAs(admin.token, 'viewer');
    const toDeveloper = await inviteAs(admin.token, 'developer');
    await as(ownerToken)
      .patch(`/api/v1/account/members/${admin.userId}`)
      .send({ role: 'viewer' })
      .expect(200);
    await expectDead(toViewer.token);
    await expectDead(toDeveloper.token);
    expect((await revocations(toDeveloper.id))[0]!.data).toMatchObject({
      reason: 'inviter_role_changed',
      inviterRole: 'viewer',
    });

    // Demoted to developer? Also no invitation rights. Back to admin: a new invitation stays.
    await as(ownerToken)
      .patch(`/api/v1/account/members/${admin.userId}`)
      .send({ role: 'admin' })
      .expect(200);
    const again = await login(t, admin);
    const kept = await inviteAs(again, 'viewer');
    await as(ownerToken).patch(`/api/v1/account/members/${admin.userId}`).send({ role: 'admin' });
    expect(await revocations(kept.id)).toHaveLength(0);
  });

  it("revokes the previous owner's admin invitations on an ownership transfer", async () => {
    const other = await t.createAccount();
    const otherToken = await login(t, other);
    const admin = await joinAs(t, otherToken, 'admin');
    const toAdmin = await inviteAs(otherToken, 'admin');
    const toViewer = await inviteAs(otherToken, 'viewer');
    await as(otherToken)
      .patch(`/api/v1/account/members/${admin.userId}`)
      .send({ role: 'owner' })
      .expect(200);
    await expectDead(toAdmin.token);
    const pending = await as(admin.token).get('/api/v1/account/invitations').expect(200);
    expect(pending.body.items.map((i: { id: string }) => i.id)).toEqual([toViewer.id]);
  });
});
