import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In } from 'typeorm';
import type { MemberActor } from '../auth/member-actor';
import { MfaService } from '../auth/mfa/mfa.service';
import { TOTP_CODE } from '../auth/mfa/totp';
import { Role, roleForbidden } from '../auth/roles';
import { UsersService } from '../auth/users/users.service';
import { ApiError } from '../common/errors/api-error';
import { isUniqueViolation } from '../common/database/unique-violation';
import { ActivityLog } from '../events/activity-log';
import { DailyLimitUse, TradeRulesService } from '../trading/trade-rules.service';
import { approvalNotFound } from './approval-errors';
import { ApprovalRequest, ApprovalStatus } from './approval-request.entity';
import { ApprovalDecision, ApprovalVote } from './approval-vote.entity';
import {
  ApprovalMember,
  approvalCount,
  ApprovalView,
  approvalView,
  rolesOf,
} from './approval-view';

export const APPROVAL_PAGE_DEFAULT = 50;
export const APPROVAL_PAGE_MAX = 200;

/**
 * Approval requests as members see and decide them (issue 55). A vote is one transaction: the
 * request's row is locked (PostgreSQL FOR UPDATE; SQLite serializes write transactions), the vote
 * inserted (unique per member), the approvals counted, and the request moved to `approved` by a
 * conditional UPDATE (`WHERE status = 'pending'`) when they reach the quorum: two members
 * approving at once on two replicas are counted one after the other, and exactly one of them
 * makes the transition (its `approval.approved` event says `final: true`).
 */
@Injectable()
export class ApprovalsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly mfa: MfaService,
    private readonly activity: ActivityLog,
    private readonly trading: TradeRulesService,
  ) {}

  async list(
    accountId: string,
    query: { status?: ApprovalStatus; limit?: number },
  ): Promise<{ items: ApprovalView[] }> {
    const rows = await this.dataSource.getRepository(ApprovalRequest).find({
      where: { accountId, ...(query.status ? { status: query.status } : {}) },
      order: { createdMs: 'DESC', id: 'DESC' },
      take: Math.min(query.limit ?? APPROVAL_PAGE_DEFAULT, APPROVAL_PAGE_MAX),
    });
    const votes = rows.length
      ? await this.dataSource
          .getRepository(ApprovalVote)
          .findBy({ requestId: In(rows.map((row) => row.id)) })
      : [];
    const members = await this.members(accountId);
    const daily = rows.length ? await this.dailyUse(accountId) : [];
    return {
      items: rows.map((row) =>
        approvalView(
          row,
          votes.filter((vote) => vote.requestId === row.id),
          members,
          daily,
        ),
      ),
    };
  }

  async get(accountId: string, id: string): Promise<ApprovalView> {
    const request = await this.find(accountId, id);
    return approvalView(
      request,
      await this.votesOf(id),
      await this.members(accountId),
      await this.dailyUse(accountId),
    );
  }

  /** The account's daily limits (trading.limits perDay) and what the 24 h window holds now. */
  private async dailyUse(accountId: string): Promise<DailyLimitUse[]> {
    const trading = await this.trading.tradingOf(accountId);
    if (!trading?.limits?.some((limit) => limit.perDay !== undefined)) return [];
    return (await this.trading.evaluate(accountId, { tokens: [], gives: [] }, trading)).dailyLimits;
  }

  /** A member's approval: refused to the requester (APPROVAL_SELF) and to other roles. */
  approve(member: MemberActor, id: string, code: string | undefined): Promise<ApprovalView> {
    return this.decide(member, id, { decision: 'approve', code });
  }

  /** One member's rejection ends the request (no second factor: it can only stop a trade). */
  reject(member: MemberActor, id: string, reason: string): Promise<ApprovalView> {
    return this.decide(member, id, { decision: 'reject', reason });
  }

  // --- for the gate and the sweep (same module) ---------------------------------------------

  async find(accountId: string, id: string, manager?: EntityManager): Promise<ApprovalRequest> {
    const request = await (manager ?? this.dataSource.manager)
      .getRepository(ApprovalRequest)
      .findOneBy({ id, accountId });
    if (!request) throw approvalNotFound();
    return request;
  }

  votesOf(requestId: string, manager?: EntityManager): Promise<ApprovalVote[]> {
    return (manager ?? this.dataSource.manager)
      .getRepository(ApprovalVote)
      .find({ where: { requestId }, order: { createdMs: 'ASC', id: 'ASC' } });
  }

  async members(accountId: string): Promise<ApprovalMember[]> {
    return (await this.users.listMembers(accountId)).map(({ id, email, role }) => ({
      id,
      email,
      role,
    }));
  }

  // ------------------------------------------------------------------------------------------

  private async decide(
    member: MemberActor,
    id: string,
    vote: { decision: ApprovalDecision; code?: string; reason?: string },
  ): Promise<ApprovalView> {
    const before = await this.find(member.accountId, id);
    assertMayDecide(before, member);
    assertOpen(before, Date.now());
    const secondFactor =
      vote.decision === 'approve' ? await this.secondFactor(member.userId, vote.code) : null;
    await this.dataSource.transaction(async (manager) => {
      const request = await this.lockRequest(manager, member.accountId, id);
      const now = Date.now();
      assertOpen(request, now);
      const votes = await this.votesOf(id, manager);
      if (votes.some((v) => v.userId === member.userId))
        throw new ApiError('APPROVAL_CLOSED', 'You already decided on this approval request', {
          hint: 'Each member approves or rejects a request once; GET /api/v1/approvals/{id} shows the votes.',
          details: [{ status: request.status }],
        });
      await this.insertVote(manager, {
        id: randomUUID(),
        requestId: id,
        userId: member.userId,
        role: member.role,
        decision: vote.decision,
        reason: vote.reason ?? null,
        secondFactor,
        createdMs: now,
      });
      if (vote.decision === 'reject') {
        await this.transition(manager, request, 'rejected', now);
        await this.record(manager, request, member, 'approval.rejected', {
          reason: vote.reason,
          status: 'rejected',
        });
        return;
      }
      const approvals = approvalCount(votes) + 1;
      const final =
        approvals >= request.quorum && (await this.transition(manager, request, 'approved', now));
      await this.record(manager, request, member, 'approval.approved', {
        approvals,
        quorum: request.quorum,
        final,
        status: final ? 'approved' : 'pending',
        secondFactor,
      });
    });
    return this.get(member.accountId, id);
  }

  /** A member with two-factor sign-in confirms an approval with a current TOTP code (spent). */
  private async secondFactor(userId: string, code: string | undefined): Promise<string | null> {
    if (!(await this.mfa.isEnabled(userId))) return null;
    if (code === undefined || code === '')
      throw new ApiError('MFA_REQUIRED', 'Confirm this approval with your authenticator code', {
        hint: 'You have two-factor sign-in: send the current 6-digit code of your authenticator app as `code`.',
      });
    // A current TOTP code only: a recovery code is for signing in, not for moving funds.
    if (!TOTP_CODE.test(code) || (await this.mfa.verifySecondFactor(userId, code)) !== 'totp')
      throw new ApiError('MFA_INVALID', 'The one-time code is wrong, expired or already used', {
        hint: 'Wait for the next code in your authenticator app and approve again (each code is accepted once).',
      });
    return 'totp';
  }

  private async lockRequest(
    manager: EntityManager,
    accountId: string,
    id: string,
  ): Promise<ApprovalRequest> {
    const postgres = manager.connection.options.type === 'postgres';
    const request = await manager.getRepository(ApprovalRequest).findOne({
      where: { id, accountId },
      ...(postgres ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!request) throw approvalNotFound();
    return request;
  }

  private async insertVote(manager: EntityManager, vote: ApprovalVote): Promise<void> {
    try {
      await manager.getRepository(ApprovalVote).insert(vote);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new ApiError('APPROVAL_CLOSED', 'You already decided on this approval request', {
        details: [{ status: 'pending' }],
      });
    }
  }

  /** pending -> `to`, conditionally: true when this call made the change. */
  private async transition(
    manager: EntityManager,
    request: ApprovalRequest,
    to: ApprovalStatus,
    now: number,
  ): Promise<boolean> {
    const moved = await manager
      .getRepository(ApprovalRequest)
      .update({ id: request.id, status: 'pending' }, { status: to, decidedMs: now });
    if (moved.affected === 1) request.status = to;
    return moved.affected === 1;
  }

  private async record(
    manager: EntityManager,
    request: ApprovalRequest,
    member: MemberActor,
    type: 'approval.approved' | 'approval.rejected',
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.activity.record(
      {
        accountId: request.accountId,
        type,
        actor: member.actor,
        target: { type: 'approval', id: request.id },
        data: {
          by: { type: 'user', id: member.userId, role: member.role },
          wallet: request.wallet,
          operation: request.operation,
          gives: JSON.parse(request.gives) as unknown,
          ...data,
        },
        request: member.request,
      },
      manager,
    );
  }
}

function assertMayDecide(request: ApprovalRequest, member: MemberActor): void {
  if (request.requesterUserId === member.userId)
    throw new ApiError('APPROVAL_SELF', 'You asked for this trade: another member must decide', {
      details: [{ approvalId: request.id, requesterUserId: request.requesterUserId }],
    });
  const roles = rolesOf(request) as Role[];
  if (!roles.includes(member.role))
    throw roleForbidden(member.role, roles, {
      message: `The ${member.role} role cannot decide on this approval request`,
      extra: { approvalId: request.id },
    });
}

/** Only a pending request within its time is decided; anything else says what it is. */
function assertOpen(request: ApprovalRequest, now: number): void {
  if (request.status === 'pending' && request.expiresMs > now) return;
  const status = request.status === 'pending' ? 'expired' : request.status;
  if (status === 'expired')
    throw new ApiError('APPROVAL_EXPIRED', `Approval request ${request.id} expired`, {
      details: [{ approvalId: request.id, status }],
    });
  throw new ApiError('APPROVAL_CLOSED', `Approval request ${request.id} is ${status}`, {
    details: [{ approvalId: request.id, status }],
  });
}
