/**
 * Approvals e2e helpers (issue 55): decide a request as a member, read it, and read the audit
 * trail of one request.
 */
import request from 'supertest';
import type { TestApp } from './app';

export const approve = (t: TestApp, token: string, id: string, code?: string) =>
  request(t.server)
    .post(`/api/v1/approvals/${id}/approve`)
    .set('Authorization', `Bearer ${token}`)
    .send(code === undefined ? {} : { code });

export const reject = (t: TestApp, token: string, id: string, reason: string) =>
  request(t.server)
    .post(`/api/v1/approvals/${id}/reject`)
    .set('Authorization', `Bearer ${token}`)
    .send({ reason });

export const getApproval = (t: TestApp, auth: { token?: string; key?: string }, id: string) =>
  request(t.server)
    .get(`/api/v1/approvals/${id}`)
    .set(auth.key ? { 'X-API-Key': auth.key } : { Authorization: `Bearer ${auth.token}` });

export interface AuditItem {
  type: string;
  actor: { type: string; id: string | null };
  target: { type: string; id: string } | null;
  data: Record<string, unknown>;
}

/** The audit trail's approval.* events of one request, oldest first. */
export async function approvalAudit(t: TestApp, token: string, id: string): Promise<AuditItem[]> {
  const items: AuditItem[] = [];
  for (const type of [
    'approval.requested',
    'approval.approved',
    'approval.rejected',
    'approval.expired',
  ]) {
    const res = await request(t.server)
      .get(`/api/v1/audit-events?type=${type}&limit=200`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    items.push(...(res.body.items as AuditItem[]).filter((item) => item.target?.id === id));
  }
  return items;
}
