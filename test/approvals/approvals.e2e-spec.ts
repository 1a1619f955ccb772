/**
 * Four eyes on the devnet (issue 55, "Done when"): a policy with a tUSDC threshold and a quorum of
 * 2 owners/admins; a build above it (by an API key an admin created) is 403 APPROVAL_REQUIRED;
 * that admin's own approval is 403 APPROVAL_SELF; the owner's leaves it APPROVAL_PENDING; a second
 * admin's (with a TOTP code: two-factor on) makes the same build answer 200, once: the swap is
 * signed, relayed and CONFIRMED; the id used again, or with another amount, is refused; a rejected
 * and an expired request and one the policy no longer requires each end with their code; a build
 * under the threshold never opens a request; the webhook receiver and the audit trail show every
 * step.
 */
import type { Wallet } from 'ethers';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApprovalRequest } from '../../src/approvals/approval-request.entity';
import { createTestApp, TestApp } from '../helpers/app';
import { approvalAudit, approve, getApproval, reject } from '../helpers/approvals';
import { createApiKey, login } from '../helpers/auth';
import { DefiDevnet, relayUntilConfirmed, signBuilt, startDefiDevnet } from '../helpers/defi';
import { joinAs, JoinedMember } from '../helpers/members';
import { getReceipt } from '../helpers/receipts';
import { codeAt, enrolTotp } from '../helpers/totp';
import { pollUntil } from '../helpers/wait';
import { typeOf, verified, WebhookReceiver } from '../webhooks/receiver';

const USDC = 10n ** 6n;
const usdc = (whole: number) => (BigInt(whole) * USDC).toString();
const BASE = { sources: { mode: 'any', names: [] }, countries: {}, minSessionSeconds: 0 };
const APPROVALS = { quorum: 2, roles: ['owner', 'admin'], ttlSeconds: 600 };

describe('ApprovalGate: four eyes on builds above a threshold (devnet)', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let receiver: WebhookReceiver;
  let webhookSecret: string;
  let ownerToken: string;
  let ownerId: string;
  let adminA: JoinedMember;
  let adminB: JoinedMember & { secret: string };
  let developer: JoinedMember;
  let key: string;
  let user: Wallet;
  let T: Record<'WETH' | 'tUSDC', string>;
  const ids: string[] = [];

  const policy = (above: string) =>
    request(t.server)
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${ownerToken}`)
      .send({
        ...BASE,
        trading: {
          enforcement: 'service',
          limits: [{ token: 'tUSDC', perDay: '100000' }],
          approvals: { above: [{ token: 'tUSDC', amount: above }], ...APPROVALS },
        },
      })
      .expect(200);
  const body = (amount: number, over: object = {}) => ({
    tokenIn: T.tUSDC,
    tokenOut: T.WETH,
    amount: usdc(amount),
    userAddress: user.address,
    ...over,
  });
  /** The swap build, by the API key adminA created (so adminA is the requester). */
  const swap = (b: object) =>
    request(t.server).post('/api/v1/defi/swap').set('X-API-Key', key).send(b);
  const listAll = async () =>
    (await request(t.server).get('/api/v1/approvals').set('X-API-Key', key).expect(200)).body
      .items as Array<{ id: string; status: string }>;

  /** Opens a request for `amount`: 403 APPROVAL_REQUIRED with its facts. */
  async function required(amount: number): Promise<string> {
    const refused = await swap(body(amount)).expect(403);
    expect(refused.body).toMatchObject({ code: 'APPROVAL_REQUIRED', phase: 'preflight' });
    const [facts] = refused.body.details;
    expect(facts).toMatchObject({
      approvalId: expect.any(String),
      quorum: 2,
      approvals: 0,
      status: 'pending',
      thresholds: [{ token: 'tUSDC', amount: String(amount), threshold: '100' }],
    });
    // Who may approve: the owner and the other admin; not the requester, not the developer.
    expect(facts.approvers.map((a: { userId: string }) => a.userId).sort()).toEqual(
      [ownerId, adminB.userId].sort(),
    );
    ids.push(facts.approvalId);
    return facts.approvalId as string;
  }

  beforeAll(async () => {
    chain = await startDefiDevnet();
    t = await createTestApp({
      env: {
        CHAIN_RPC_URL: chain.rpcUrl,
        WEBHOOK_POLL_INTERVAL_MS: '100',
        WEBHOOK_SCAN_INTERVAL_MS: '200',
        APPROVALS_SWEEP_INTERVAL_MS: '200',
      },
    });
    const owner = await t.createAccount();
    ownerId = owner.userId;
    ownerToken = await login(t, owner);
    adminA = await joinAs(t, ownerToken, 'admin');
    const b = await joinAs(t, ownerToken, 'admin');
    adminB = { ...b, secret: (await enrolTotp(t, b.token)).secret };
    developer = await joinAs(t, ownerToken, 'developer');
    key = (await createApiKey(t, adminA.token, ['defi:swap', 'defi:broadcast', 'approvals:read']))
      .key;
    receiver = await WebhookReceiver.start();
    const hook = await request(t.server)
      .post('/api/v1/webhooks')
      .set('Authorization', `Bearer ${ownerToken}`)
      .send({
        url: receiver.url,
        events: [
          'approval.requested',
          'approval.approved',
          'approval.rejected',
          'approval.expired',
        ],
      })
      .expect(201);
    webhookSecret = hook.body.secret;
    T = chain.deployment.tokens as typeof T;
    user = chain.wallets[5];
    await chain.activate(user.address);
    await policy('100');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await chain?.close();
  });

  it('a build under the threshold never opens a request (and its approvals are sent)', async () => {
    const small = await swap(body(50)).expect(200);
    for (const approval of small.body.approvals)
      await relayUntilConfirmed(t, ownerToken, await signBuilt(user, approval.transaction));
    await swap(body(100)).expect(200); // at the threshold: not above it
    expect(await listAll()).toEqual([]);
  });

  it('above it: APPROVAL_REQUIRED; SELF, API keys and other roles refused; PENDING; TOTP; 200 once; CONFIRMED', async () => {
    const id = await required(300);
    // The requester (adminA created the key that built), an API key, a developer: none may approve.
    expect((await approve(t, adminA.token, id).expect(403)).body.code).toBe('APPROVAL_SELF');
    await request(t.server)
      .post(`/api/v1/approvals/${id}/approve`)
      .set('X-API-Key', key)
      .send({})
      .expect(403);
    expect((await approve(t, developer.token, id).expect(403)).body.code).toBe('ROLE_FORBIDDEN');

    const first = await approve(t, ownerToken, id).expect(200);
    expect(first.body).toMatchObject({ status: 'pending', approvals: 1, quorum: 2 });
    // How much of the daily limit it would use: the two builds under the threshold are reserved.
    expect(first.body.dailyLimits).toEqual([
      { token: 'tUSDC', perDay: '100000', used: '150', remaining: '99850', requested: '300' },
    ]);
    const pending = await swap(body(300, { approvalId: id })).expect(403);
    expect(pending.body).toMatchObject({
      code: 'APPROVAL_PENDING',
      details: [{ approvalId: id, approvals: 1, quorum: 2, status: 'pending' }],
    });

    // adminB has two-factor sign-in: a current TOTP code, once (enrolment spent this step's code:
    // the next step's, which the server accepts as current).
    expect((await approve(t, adminB.token, id).expect(401)).body.code).toBe('MFA_REQUIRED');
    expect((await approve(t, adminB.token, id, '000000').expect(401)).body.code).toBe(
      'MFA_INVALID',
    );
    const second = await approve(t, adminB.token, id, await codeAt(adminB.secret, 1)).expect(200);
    expect(second.body).toMatchObject({ status: 'approved', approvals: 2 });
    expect(second.body.votes.map((v: { secondFactor: string | null }) => v.secondFactor)).toEqual([
      null,
      'totp',
    ]);

    // Another amount with this id: refused; the request stays approved.
    const other = await swap(body(301, { approvalId: id })).expect(409);
    expect(other.body.code).toBe('APPROVAL_MISMATCH');

    const built = await swap(body(300, { approvalId: id })).expect(200);
    const done = await relayUntilConfirmed(
      t,
      ownerToken,
      await signBuilt(user, built.body.transaction),
    );
    expect(done.status).toBe('CONFIRMED');
    const { receipt } = await getReceipt(t, ownerToken, built.body.receiptId);
    expect(receipt.approval).toMatchObject({
      id,
      quorum: 2,
      requestedBy: { type: 'api_key', userId: adminA.userId },
      approvals: [
        { userId: ownerId, role: 'owner', secondFactor: null },
        { userId: adminB.userId, role: 'admin', secondFactor: 'totp' },
      ],
    });

    const again = await swap(body(300, { approvalId: id })).expect(409);
    expect(again.body.code).toBe('APPROVAL_USED');
    const read = await getApproval(t, { key }, id).expect(200);
    expect(read.body).toMatchObject({
      status: 'used',
      requestedBy: { type: 'api_key', userId: adminA.userId, email: adminA.email },
      gives: [{ token: 'tUSDC', amount: '300' }],
    });
  });

  it('a rejected request ends with APPROVAL_REJECTED', async () => {
    const id = await required(200);
    const rejected = await reject(t, ownerToken, id, 'too large this week').expect(200);
    expect(rejected.body).toMatchObject({ status: 'rejected' });
    const refused = await swap(body(200, { approvalId: id })).expect(403);
    expect(refused.body).toMatchObject({
      code: 'APPROVAL_REJECTED',
      details: [{ approvalId: id, status: 'rejected', reason: 'too large this week' }],
    });
    expect((await approve(t, adminB.token, id).expect(409)).body.code).toBe('APPROVAL_CLOSED');
  });

  it('an expired request is ended by the sweep (approval.expired) and ends with APPROVAL_EXPIRED', async () => {
    const id = await required(150);
    await approve(t, ownerToken, id).expect(200);
    // Its time passes (the policy's shortest ttl is a minute): moved to the past in the database.
    await t.app
      .get(DataSource)
      .getRepository(ApprovalRequest)
      .update({ id }, { expiresMs: Date.now() - 1 });
    await pollUntil(
      `approval ${id} expired`,
      async () => (await getApproval(t, { key }, id).expect(200)).body,
      (read) => read.status === 'expired',
    );
    const refused = await swap(body(150, { approvalId: id })).expect(403);
    expect(refused.body).toMatchObject({
      code: 'APPROVAL_EXPIRED',
      details: [{ status: 'expired' }],
    });
  });

  it('a policy that no longer requires it ends the request with APPROVAL_NOT_REQUIRED', async () => {
    const id = await required(120);
    await policy('1000');
    const refused = await swap(body(120, { approvalId: id })).expect(409);
    expect(refused.body.code).toBe('APPROVAL_NOT_REQUIRED');
    expect((await getApproval(t, { key }, id).expect(200)).body.status).toBe('cancelled');
    // The same trade without the id is now under the threshold: built, no request.
    await swap(body(120)).expect(200);
    await policy('100');
  });

  it('the webhook receiver and the audit trail show every step, with who and what', async () => {
    const [used, rejected, expired] = ids;
    const expected: Array<[string, string, number]> = [
      [used, 'approval.requested', 1],
      [used, 'approval.approved', 2],
      [rejected, 'approval.requested', 1],
      [rejected, 'approval.rejected', 1],
      [expired, 'approval.requested', 1],
      [expired, 'approval.approved', 1],
      [expired, 'approval.expired', 1],
    ];
    for (const [id, type, count] of expected)
      await receiver.waitFor((h) => typeOf(h) === type && h.body.includes(id), count);
    const events = receiver.received.map((h) => verified(webhookSecret, h));
    const finals = events.filter(
      (e) => e.type === 'approval.approved' && e.data.approvalId === used,
    );
    expect(
      finals.map((e) => [e.data.final, e.data.approvals, (e.data.by as { id: string }).id]),
    ).toEqual([
      [false, 1, ownerId],
      [true, 2, adminB.userId],
    ]);
    expect(
      events.find((e) => e.type === 'approval.requested' && e.data.approvalId === used)!.data,
    ).toMatchObject({
      by: { type: 'api_key', userId: adminA.userId },
      wallet: user.address,
      operation: 'swap',
      gives: [{ token: 'tUSDC', amount: '300' }],
      quorum: 2,
    });
    expect(events.find((e) => e.type === 'approval.rejected')!.data).toMatchObject({
      approvalId: rejected,
      reason: 'too large this week',
      by: { id: ownerId },
    });

    const audit = await approvalAudit(t, ownerToken, used);
    expect(audit.map((e) => [e.type, e.actor.type])).toEqual([
      ['approval.requested', 'api_key'],
      ['approval.approved', 'user'],
      ['approval.approved', 'user'],
    ]);
    const expiredAudit = await approvalAudit(t, ownerToken, expired);
    expect(expiredAudit.map((e) => [e.type, e.actor.type])).toContainEqual([
      'approval.expired',
      'system',
    ]);
  });
});
