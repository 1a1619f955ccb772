import request from 'supertest';
import { createTestApp, TEST_PASSWORD, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { RoleProbeController } from './role-probe.controller';

/**
 * The auth guard's role rules, on probe routes: a viewer reads (GET/HEAD) and uses @AnyRole()
 * routes only; @RequireRole names who may; API keys have scopes, not roles.
 */
describe('ApiKeyOrJwtGuard role rules', () => {
  let t: TestApp;
  let owner: TestAccount;
  let ownerToken: string;
  let viewerToken: string;

  beforeAll(async () => {
    t = await createTestApp({ extra: { controllers: [RoleProbeController] } });
    owner = await t.createAccount();
    ownerToken = await login(t, owner);
    const email = `viewer-${Date.now()}@example.com`;
    const invited = await request(t.server)
      .post('/api/v1/account/invitations')
      .set('Authorization', `Bearer ${ownerToken}`)
      .send({ email, role: 'viewer' })
      .expect(201);
    await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token: invited.body.token, password: TEST_PASSWORD })
      .expect(201);
    viewerToken = await login(t, { email, password: TEST_PASSWORD });
  });
  afterAll(() => t.close());

  const as = (token: string) => ({
    get: (path: string) => request(t.server).get(path).set('Authorization', `Bearer ${token}`),
    head: (path: string) => request(t.server).head(path).set('Authorization', `Bearer ${token}`),
    post: (path: string) => request(t.server).post(path).set('Authorization', `Bearer ${token}`),
    delete: (path: string) =>
      request(t.server).delete(path).set('Authorization', `Bearer ${token}`),
  });

  it('gives a dashboard principal its role, read for the request', async () => {
    expect((await as(ownerToken).get('/api/v1/test-roles/read').expect(200)).body.role).toBe(
      'owner',
    );
    expect((await as(viewerToken).get('/api/v1/test-roles/read').expect(200)).body.role).toBe(
      'viewer',
    );
  });

  it('lets a viewer read and use self-service routes, and refuses its other changes', async () => {
    await as(viewerToken).head('/api/v1/test-roles/read').expect(200);
    await as(viewerToken).delete('/api/v1/test-roles/self-service').expect(200);
    const refused = await as(viewerToken).post('/api/v1/test-roles/change').expect(403);
    expect(refused.body).toMatchObject({
      code: 'ROLE_FORBIDDEN',
      phase: 'auth',
      message: 'The viewer role cannot do this; it needs owner, admin or developer',
      details: [{ role: 'viewer', required: ['owner', 'admin', 'developer'] }],
    });
    await as(ownerToken).post('/api/v1/test-roles/change').expect(200);
  });

  it('applies @RequireRole to every method, GET included', async () => {
    await as(ownerToken).get('/api/v1/test-roles/owners').expect(200);
    const refused = await as(viewerToken).get('/api/v1/test-roles/owners').expect(403);
    expect(refused.body.details).toEqual([{ role: 'viewer', required: ['owner'] }]);
  });

  it('leaves API keys to their scopes', async () => {
    const key = await createApiKey(t, ownerToken, ['usage:read']);
    await request(t.server).post('/api/v1/test-roles/change').set('X-API-Key', key.key).expect(200);
    await request(t.server).get('/api/v1/test-roles/owners').set('X-API-Key', key.key).expect(200);
  });
});
