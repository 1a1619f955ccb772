import { ApiError } from '../common/errors/api-error';
import type { ApprovalRequest } from './approval-request.entity';

/** The facts every approval refusal carries as details[0] (design §10). */
export interface ApprovalFacts {
  approvalId: string;
  quorum: number;
  approvers: { userId: string; role: string }[];
  approvals: number;
  status: string;
  expiresAt: string;
}

export function approvalNotFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No approval request with this id in your account', {
    hint: 'GET /api/v1/approvals lists your account’s approval requests; build without approvalId to open one.',
  });
}

/** The refusal a build naming this request gets for its status (pending, rejected, ...). */
export function approvalRefusal(request: ApprovalRequest, facts: ApprovalFacts): ApiError {
  const details = [facts];
  switch (request.status) {
    case 'pending':
      return new ApiError(
        'APPROVAL_PENDING',
        `Approval request ${request.id} has ${facts.approvals} of ${request.quorum} approvals`,
        { details },
      );
    case 'rejected':
      return new ApiError('APPROVAL_REJECTED', `Approval request ${request.id} was rejected`, {
        details,
      });
    case 'expired':
      return new ApiError('APPROVAL_EXPIRED', `Approval request ${request.id} expired`, {
        details,
      });
    case 'used':
      return new ApiError('APPROVAL_USED', `Approval request ${request.id} was already used`, {
        details,
      });
    case 'cancelled':
      return new ApiError(
        'APPROVAL_NOT_REQUIRED',
        `The policy no longer requires approval request ${request.id}: it is ended`,
        { details },
      );
    case 'approved':
      throw new Error('an approved request is not a refusal');
  }
}
