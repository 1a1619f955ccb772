import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { integerColumn } from '../common/database/integer-column';

/**
 * pending: waiting for its quorum; approved: the quorum is reached, the build may be sent again
 * once; used: that build was answered; rejected: a member refused it; expired: its time passed
 * (pending or approved); cancelled: the policy no longer requires it (ended by the build that saw so).
 */
export const APPROVAL_STATUSES = [
  'pending',
  'approved',
  'used',
  'rejected',
  'expired',
  'cancelled',
] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** What the wallet gives in the requested trade, per token (trade facts, issue 54). */
export interface ApprovalGives {
  token: string;
  /** Whole token units, as the policy writes amounts. */
  amount: string;
}

/**
 * One approval request: the trade a build asked for above a threshold of the account's
 * `trading.approvals`, bound by its fingerprint, and the rules it was opened under (quorum,
 * roles, expiry, policy version). Status moves only by conditional UPDATEs (`WHERE status = ...`).
 */
@Entity('approval_requests')
@Index('IDX_approval_requests_account', ['accountId', 'status', 'createdMs'])
@Index('IDX_approval_requests_expiry', ['status', 'expiresMs'])
export class ApprovalRequest {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  /** Checksummed. */
  @Column({ type: 'varchar', length: 42 })
  wallet: string;

  /** swap, mint, increase (the receipt's operation name). */
  @Column({ type: 'varchar', length: 16 })
  operation: string;

  /** Who built: 'user' (a JWT member) or 'api_key'. */
  @Column({ name: 'requested_by_type', type: 'varchar', length: 8 })
  requestedByType: 'user' | 'api_key';

  @Column({ name: 'requested_by_id', type: 'varchar', length: 36 })
  requestedById: string;

  /** The member who asked: the JWT user, or the member who created the API key (null: unknown). */
  @Column({ name: 'requester_user_id', type: 'varchar', length: 36, nullable: true })
  requesterUserId: string | null;

  /** sha256 (hex) of the canonical request (approval-fingerprint.ts). */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  /** The request as built (JSON), to show what is being approved. */
  @Column({ type: 'text' })
  request: string;

  /** ApprovalGives[] (JSON). */
  @Column({ type: 'text' })
  gives: string;

  @Column({ type: 'varchar', length: 16 })
  status: ApprovalStatus;

  @Column({ type: 'integer' })
  quorum: number;

  /** Roles that may approve (JSON array). */
  @Column({ type: 'text' })
  roles: string;

  @Column({ name: 'policy_version', type: 'integer' })
  policyVersion: number;

  @Column({ name: 'created_ms', type: 'bigint', transformer: integerColumn })
  createdMs: number;

  @Column({ name: 'expires_ms', type: 'bigint', transformer: integerColumn })
  expiresMs: number;

  /** When it left `pending` (approved, rejected, expired, cancelled). */
  @Column({ name: 'decided_ms', type: 'bigint', transformer: integerColumn, nullable: true })
  decidedMs: number | null;

  @Column({ name: 'used_ms', type: 'bigint', transformer: integerColumn, nullable: true })
  usedMs: number | null;
}
