/**
 * Four eyes across replicas (issue 55): two members approving one request at the same moment on
 * two instances sharing the database reach the quorum once: both votes count, the request moves
 * to approved once, and exactly one approval.approved says final. The requests are seeded as the
 * gate writes them (no chain needed to decide one); the votes go through the HTTP API, and the
 * approved build sent twice at once goes through each instance's gate: it passes once.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { approvalFingerprint } from '../../src/approvals/approval-fingerprint';
import { ApprovalGate } from '../../src/approvals/approval-gate.service';
import { ApprovalRequest, ApprovalStatus } from '../../src/approvals/approval-request.entity';
import type { ApiError } from '../../src/common/errors/api-error';
import { createTestApp, TestApp } from '../helpers/app';
import { approvalAudit, approve, getApproval } from '../helpers/approvals';
import { login } from '../helpers/auth';
import { joinAs, JoinedMember } from '../helpers/members';

describe('ApprovalsService: the quorum on two replicas', () => {
  let a: TestApp;
  let b: TestApp;
  let accountId: string;
  let ownerToken: string;
  let admin: JoinedMember;
  let requester: JoinedMember;

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({ db: a.db });
    const owner = await a.createAccount();
    accountId = owner.accountId;
    ownerToken = await login(a, owner);
    admin = await joinAs(a, ownerToken, 'admin');
    requester = await joinAs(a, ownerToken, 'admin');
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const WALLET = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';
  const BODY = { tokenIn: '0x1', tokenOut: '0x2', amount: '1500000000', userAddress: WALLET };

  async function seedRequest(quorum: number, status: ApprovalStatus = 'pending'): Promise<string> {
    const id = randomUUID();
    const now = Date.now();
    await a.app
      .get(DataSource)
      .getRepository(ApprovalRequest)
      .insert({
        id,
        accountId,
        wallet: WALLET,
        operation: 'swap',
        requestedByType: 'user',
        requestedById: requester.userId,
        requesterUserId: requester.userId,
        fingerprint: approvalFingerprint('swap', 1, BODY),
        request: '{}',
        gives: JSON.stringify([{ token: 'tUSDC', amount: '1500' }]),
        status,
        quorum,
        roles: JSON.stringify(['owner', 'admin']),
        policyVersion: 1,
        createdMs: now,
        expiresMs: now + 600_000,
        decidedMs: null,
        usedMs: null,
      });
    return id;
  }

  it('two approvals at once on two instances: both count, approved once, one final event', async () => {
    for (let round = 0; round < 6; round++) {
      const id = await seedRequest(2);
      const [first, second] = await Promise.all([
        approve(a, ownerToken, id),
        approve(b, admin.token, id),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const read = await getApproval(b, { token: ownerToken }, id).expect(200);
      expect(read.body).toMatchObject({ status: 'approved', approvals: 2 });
      const approved = (await approvalAudit(a, ownerToken, id)).filter(
        (e) => e.type === 'approval.approved',
      );
      expect(approved).toHaveLength(2);
      expect(approved.filter((e) => e.data.final === true)).toHaveLength(1);
    }
  });

  it('quorum 1, two members at once: one approves it, the other is told it is closed', async () => {
    for (let round = 0; round < 4; round++) {
      const id = await seedRequest(1);
      const answers = await Promise.all([approve(a, ownerToken, id), approve(b, admin.token, id)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const refused = answers.find((r) => r.status === 409)!;
      expect(refused.body).toMatchObject({
        code: 'APPROVAL_CLOSED',
        details: [{ status: 'approved' }],
      });
      const read = await getApproval(a, { token: ownerToken }, id).expect(200);
      expect(read.body).toMatchObject({ status: 'approved', approvals: 1 });
    }
  });

  it('the requester cannot approve (APPROVAL_SELF), nor an API key, nor twice', async () => {
    const id = await seedRequest(2);
    const self = await approve(a, requester.token, id).expect(403);
    expect(self.body).toMatchObject({ code: 'APPROVAL_SELF' });
    const key = await request(a.server)
      .post('/api/v1/api-keys')
      .set('Authorization', `Bearer ${ownerToken}`)
      .send({ name: 'reader', scopes: ['approvals:read'] })
      .expect(201);
    await request(a.server)
      .post(`/api/v1/approvals/${id}/approve`)
      .set('X-API-Key', key.body.key)
      .send({})
      .expect(403);
    await getApproval(a, { key: key.body.key }, id).expect(200);
    await approve(a, ownerToken, id).expect(200);
    const twice = await approve(b, ownerToken, id).expect(409);
    expect(twice.body.code).toBe('APPROVAL_CLOSED');
  });

  it('the approved build sent twice at once on two instances: one passes the gate, the other is APPROVAL_USED', async () => {
    for (let round = 0; round < 4; round++) {
      const id = await seedRequest(2, 'approved');
      const input = {
        principal: { method: 'api_key' as const, accountId, apiKeyId: randomUUID(), scopes: [] },
        operation: 'swap',
        chainId: 1,
        wallet: WALLET,
        request: { ...BODY, approvalId: id },
        rules: {
          above: [{ token: 'tUSDC', amount: '1000' }],
          quorum: 2,
          roles: ['owner', 'admin'],
          ttlSeconds: 600,
        },
        gives: [{ token: 'tUSDC', amount: '1500' }],
      };
      const outcomes = await Promise.allSettled([
        a.app.get(ApprovalGate).check(input),
        b.app.get(ApprovalGate).check(input),
      ]);
      const passed = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.filter((o) => o.status === 'rejected');
      expect([passed.length, refused.length]).toEqual([1, 1]);
      expect(((refused[0] as PromiseRejectedResult).reason as ApiError).code).toBe('APPROVAL_USED');
      expect((await getApproval(a, { token: ownerToken }, id).expect(200)).body.status).toBe(
        'used',
      );
    }
  });
});
