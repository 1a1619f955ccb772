import request from 'supertest';
import { TEST_PASSWORD, TestApp } from './app';
import { login } from './auth';

export interface JoinedMember {
  email: string;
  password: string;
  userId: string;
  token: string;
}

/**
 * Invites a fresh email with `role` (as the owner or admin behind `inviterToken`), accepts the
 * invitation with the token the demo answer shows, and logs the new member in.
 */
export async function joinAs(
  t: TestApp,
  inviterToken: string,
  role: string,
): Promise<JoinedMember> {
  const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const invited = await request(t.server)
    .post('/api/v1/account/invitations')
    .set('Authorization', `Bearer ${inviterToken}`)
    .send({ email, role });
  if (invited.status !== 201) throw new Error(`invite failed: ${JSON.stringify(invited.body)}`);
  const accepted = await request(t.server)
    .post('/auth/invitations/accept')
    .send({ token: invited.body.token, password: TEST_PASSWORD });
  if (accepted.status !== 201) throw new Error(`accept failed: ${JSON.stringify(accepted.body)}`);
  const token = await login(t, { email, password: TEST_PASSWORD });
  const me = await request(t.server).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`);
  return { email, password: TEST_PASSWORD, userId: me.body.user.id as string, token };
}
