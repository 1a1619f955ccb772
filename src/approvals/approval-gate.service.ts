import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, In } from 'typeorm';
import { ApiKeysService } from '../auth/api-keys/api-keys.service';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/errors/api-error';
import type { RequestMeta } from '../common/http/request-meta';
import { CompliancePolicyService } from '../compliance/policy/compliance-policy.service';
import { actorOf } from '../events/activity-event';
import { ActivityLog } from '../events/activity-log';
import { approvalRefusal } from './approval-errors';
import { approvalFingerprint, tradeOf } from './approval-fingerprint';
import { ApprovalGives, ApprovalRequest, ApprovalStatus } from './approval-request.entity';
import { ApprovalRules, thresholdsCrossed } from './approval-thresholds';
import type { ApprovalVote } from './approval-vote.entity';
import { approvalFacts } from './approval-view';
import { ApprovalsService } from './approvals.service';

/** A build the gate let through with an approval: the pipeline releases it if the build fails. */
export interface ApprovalPass {
  approvalId: string;
  /** used -> approved again: the build was not answered, so the approval was not spent. */
  release(): Promise<void>;
  /** The compliance receipt's `approval` (issue 56's seam): the request, who asked, who approved. */
  receipt: Record<string, unknown>;
}

export interface ApprovalGateInput {
  principal: Principal;
  /** The receipt's operation name (swap, mint, increase). */
  operation: string;
  chainId: number;
  /** Checksummed. */
  wallet: string;
  /** The build's body as sent (approvalId included or not). */
  request: Record<string, unknown> & { approvalId?: string };
  /** The account policy's trading.approvals, as the rules phase read it (null: none). */
  rules: ApprovalRules | null;
  /** What the wallet gives, per token, in whole units (the trade facts of issue 54). */
  gives: readonly ApprovalGives[];
  meta?: RequestMeta | null;
}

/**
 * The four-eyes phase of the pipeline (issue 55), after the trade rules and before the
 * reservation and the authorization: a build above a threshold of `trading.approvals` opens a
 * request (403 APPROVAL_REQUIRED); the same build sent again with `approvalId` is refused while
 * the request is pending, rejected, expired, used or no longer required, and let through once
 * when approved (approved -> used, a conditional UPDATE: of two builds at once, one passes).
 * Applies in both enforcement modes.
 */
@Injectable()
export class ApprovalGate {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly approvals: ApprovalsService,
    private readonly policy: CompliancePolicyService,
    private readonly apiKeys: ApiKeysService,
    private readonly activity: ActivityLog,
  ) {}

  /** null: no approval needed (and none named). Throws the APPROVAL_* refusals. */
  async check(input: ApprovalGateInput): Promise<ApprovalPass | null> {
    const { rules } = input;
    // Only what the rules compare and the request shows (trade facts also carry raw bigints).
    input = { ...input, gives: input.gives.map(({ token, amount }) => ({ token, amount })) };
    const crossed = thresholdsCrossed(rules, input.gives);
    const approvalId = input.request.approvalId;
    if (approvalId === undefined) {
      if (crossed.length === 0 || !rules) return null;
      const request = await this.open(input, rules);
      const facts = approvalFacts(request, [], await this.approvals.members(request.accountId));
      throw new ApiError(
        'APPROVAL_REQUIRED',
        `This trade needs ${rules.quorum} approval(s) of your account's ${rules.roles.join(', ')} (approval request ${request.id})`,
        { details: [{ ...facts, thresholds: crossed }] },
      );
    }
    return this.named(input, approvalId, crossed.length > 0);
  }

  private async named(
    input: ApprovalGateInput,
    approvalId: string,
    required: boolean,
  ): Promise<ApprovalPass> {
    const { accountId } = input.principal;
    let request = await this.approvals.find(accountId, approvalId);
    if (request.wallet !== input.wallet || request.fingerprint !== fingerprintOf(input))
      throw new ApiError(
        'APPROVAL_MISMATCH',
        `Approval request ${request.id} is for another trade than this build`,
        {
          details: [
            { approvalId: request.id, wallet: request.wallet, operation: request.operation },
          ],
        },
      );
    const now = Date.now();
    if ((request.status === 'pending' || request.status === 'approved') && request.expiresMs <= now)
      request = await this.expire(request);
    else if ((request.status === 'pending' || request.status === 'approved') && !required)
      request = await this.end(request, 'cancelled', now);
    if (request.status === 'approved') {
      const claimed = await this.dataSource
        .getRepository(ApprovalRequest)
        .update({ id: request.id, status: 'approved' }, { status: 'used', usedMs: now });
      if (claimed.affected === 1)
        return {
          approvalId: request.id,
          receipt: approvalReceipt(request, await this.approvals.votesOf(request.id)),
          release: async () => {
            await this.dataSource
              .getRepository(ApprovalRequest)
              .update({ id: request.id, status: 'used' }, { status: 'approved', usedMs: null });
          },
        };
      request = await this.approvals.find(accountId, approvalId);
    }
    const votes = await this.approvals.votesOf(request.id);
    const facts = approvalFacts(request, votes, await this.approvals.members(accountId));
    const rejection = votes.find((vote) => vote.decision === 'reject');
    throw approvalRefusal(
      request,
      rejection
        ? Object.assign(facts, { reason: rejection.reason, rejectedBy: rejection.userId })
        : facts,
    );
  }

  /** Past its time: expired (once, whichever of the gate or the sweep sees it first). */
  private expire(request: ApprovalRequest): Promise<ApprovalRequest> {
    return this.end(request, 'expired', Date.now());
  }

  /** pending|approved -> `to` conditionally; the expiry is announced by whoever made it. */
  async end(
    request: ApprovalRequest,
    to: Extract<ApprovalStatus, 'expired' | 'cancelled'>,
    now: number,
  ): Promise<ApprovalRequest> {
    await this.dataSource.transaction(async (manager) => {
      const ended = await manager
        .getRepository(ApprovalRequest)
        .update(
          { id: request.id, status: In(['pending', 'approved']) },
          { status: to, decidedMs: now },
        );
      if (ended.affected !== 1 || to !== 'expired') return;
      await this.activity.record(
        {
          accountId: request.accountId,
          type: 'approval.expired',
          actor: { type: 'system', id: null },
          target: { type: 'approval', id: request.id },
          data: {
            wallet: request.wallet,
            operation: request.operation,
            gives: JSON.parse(request.gives) as unknown,
            was: request.status,
            expiresAt: new Date(request.expiresMs).toISOString(),
          },
        },
        manager,
      );
    });
    return this.approvals.find(request.accountId, request.id);
  }

  private async open(input: ApprovalGateInput, rules: ApprovalRules): Promise<ApprovalRequest> {
    const { principal } = input;
    const policyVersion = (await this.policy.stored(principal.accountId)).version;
    const requesterUserId =
      principal.userId ??
      (principal.apiKeyId
        ? await this.apiKeys.creatorOf(principal.accountId, principal.apiKeyId)
        : null);
    const now = Date.now();
    const request: ApprovalRequest = {
      id: randomUUID(),
      accountId: principal.accountId,
      wallet: input.wallet,
      operation: input.operation,
      requestedByType: principal.userId ? 'user' : 'api_key',
      requestedById: (principal.userId ?? principal.apiKeyId)!,
      requesterUserId,
      fingerprint: fingerprintOf(input),
      request: JSON.stringify(tradeOf(input.request)),
      gives: JSON.stringify(input.gives),
      status: 'pending',
      quorum: rules.quorum,
      roles: JSON.stringify(rules.roles),
      policyVersion,
      createdMs: now,
      expiresMs: now + rules.ttlSeconds * 1000,
      decidedMs: null,
      usedMs: null,
    };
    await this.dataSource.transaction(async (manager) => {
      await manager.getRepository(ApprovalRequest).insert(request);
      await this.activity.record(
        {
          accountId: request.accountId,
          type: 'approval.requested',
          actor: actorOf(principal),
          target: { type: 'approval', id: request.id },
          data: {
            by: {
              type: request.requestedByType,
              id: request.requestedById,
              userId: requesterUserId,
            },
            wallet: request.wallet,
            operation: request.operation,
            gives: input.gives,
            quorum: rules.quorum,
            roles: rules.roles,
            expiresAt: new Date(request.expiresMs).toISOString(),
            policyVersion,
          },
          request: input.meta ?? null,
        },
        manager,
      );
    });
    return request;
  }
}

function approvalReceipt(request: ApprovalRequest, votes: ApprovalVote[]) {
  return {
    id: request.id,
    fingerprint: request.fingerprint,
    policyVersion: request.policyVersion,
    quorum: request.quorum,
    requestedBy: {
      type: request.requestedByType,
      id: request.requestedById,
      userId: request.requesterUserId,
    },
    approvals: votes
      .filter((vote) => vote.decision === 'approve')
      .map((vote) => ({
        userId: vote.userId,
        role: vote.role,
        secondFactor: vote.secondFactor,
        at: new Date(vote.createdMs).toISOString(),
      })),
  };
}

function fingerprintOf(input: ApprovalGateInput): string {
  return approvalFingerprint(input.operation, input.chainId, input.request);
}
