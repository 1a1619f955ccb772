import type { ApprovalFacts } from './approval-errors';
import type { ApprovalGives, ApprovalRequest, ApprovalStatus } from './approval-request.entity';
import type { ApprovalVote } from './approval-vote.entity';

export interface ApprovalVoteView {
  userId: string;
  email: string | null;
  role: string;
  decision: 'approve' | 'reject';
  reason: string | null;
  secondFactor: string | null;
  at: string;
}

/** An approval request as the API answers it (GET, approve, reject). */
export interface ApprovalView {
  id: string;
  status: ApprovalStatus;
  wallet: string;
  operation: string;
  /** The build's body as requested (without approvalId and deadline). */
  request: Record<string, unknown>;
  gives: ApprovalGives[];
  requestedBy: {
    type: 'user' | 'api_key';
    id: string;
    userId: string | null;
    email: string | null;
  };
  quorum: number;
  roles: string[];
  approvals: number;
  votes: ApprovalVoteView[];
  /** Members who may still approve: an approving role, not the requester, not voted yet. */
  approvers: { userId: string; email: string; role: string }[];
  /** Each daily limit of a token this trade gives: the limit, the window's use now, this request. */
  dailyLimits: {
    token: string;
    perDay: string;
    used: string;
    remaining: string;
    requested: string;
  }[];
  policyVersion: number;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  usedAt: string | null;
}

/** A member of the account as these views need it (the users service's rows). */
export interface ApprovalMember {
  id: string;
  email: string;
  role: string;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function rolesOf(request: ApprovalRequest): string[] {
  return JSON.parse(request.roles) as string[];
}

/** Members who may approve this request now (approving role, not the requester, no vote yet). */
export function eligibleApprovers(
  request: ApprovalRequest,
  members: readonly ApprovalMember[],
  votes: readonly ApprovalVote[],
): ApprovalMember[] {
  const roles = rolesOf(request);
  return members.filter(
    (m) =>
      roles.includes(m.role) &&
      m.id !== request.requesterUserId &&
      !votes.some((vote) => vote.userId === m.id),
  );
}

export function approvalCount(votes: readonly ApprovalVote[]): number {
  return votes.filter((vote) => vote.decision === 'approve').length;
}

export function approvalView(
  request: ApprovalRequest,
  votes: readonly ApprovalVote[],
  members: readonly ApprovalMember[],
  daily: readonly { token: string; perDay: string; used: string; remaining: string }[] = [],
): ApprovalView {
  const gives = JSON.parse(request.gives) as ApprovalGives[];
  const emailOf = (userId: string | null) =>
    members.find((member) => member.id === userId)?.email ?? null;
  return {
    id: request.id,
    status: request.status,
    wallet: request.wallet,
    operation: request.operation,
    request: JSON.parse(request.request) as Record<string, unknown>,
    gives,
    requestedBy: {
      type: request.requestedByType,
      id: request.requestedById,
      userId: request.requesterUserId,
      email: emailOf(request.requesterUserId),
    },
    quorum: request.quorum,
    roles: rolesOf(request),
    approvals: approvalCount(votes),
    votes: [...votes]
      .sort((a, b) => a.createdMs - b.createdMs)
      .map((vote) => ({
        userId: vote.userId,
        email: emailOf(vote.userId),
        role: vote.role,
        decision: vote.decision,
        reason: vote.reason,
        secondFactor: vote.secondFactor,
        at: new Date(vote.createdMs).toISOString(),
      })),
    approvers: eligibleApprovers(request, members, votes).map((m) => ({
      userId: m.id,
      email: m.email,
      role: m.role,
    })),
    dailyLimits: daily.flatMap((limit) =>
      gives
        .filter((given) => given.token === limit.token)
        .map((given) => ({ ...limit, requested: given.amount })),
    ),
    policyVersion: request.policyVersion,
    createdAt: iso(request.createdMs)!,
    expiresAt: iso(request.expiresMs)!,
    decidedAt: iso(request.decidedMs),
    usedAt: iso(request.usedMs),
  };
}

/** details[0] of an APPROVAL_* refusal: no e-mail addresses (an API key may be the caller). */
export function approvalFacts(
  request: ApprovalRequest,
  votes: readonly ApprovalVote[],
  members: readonly ApprovalMember[],
): ApprovalFacts {
  return {
    approvalId: request.id,
    quorum: request.quorum,
    approvers: eligibleApprovers(request, members, votes).map((m) => ({
      userId: m.id,
      role: m.role,
    })),
    approvals: approvalCount(votes),
    status: request.status,
    expiresAt: new Date(request.expiresMs).toISOString(),
  };
}
