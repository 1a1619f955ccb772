import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { integerColumn } from '../common/database/integer-column';

export type ApprovalDecision = 'approve' | 'reject';

/** One member's decision on one request: unique per (request, member). */
@Entity('approval_votes')
@Index('UQ_approval_votes_member', ['requestId', 'userId'], { unique: true })
export class ApprovalVote {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'request_id', type: 'varchar', length: 36 })
  requestId: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  /** The member's role when they decided. */
  @Column({ type: 'varchar', length: 16 })
  role: string;

  @Column({ type: 'varchar', length: 8 })
  decision: ApprovalDecision;

  @Column({ type: 'varchar', length: 500, nullable: true })
  reason: string | null;

  /** 'totp' when the member confirmed it with a current code (members with two-factor sign-in). */
  @Column({ name: 'second_factor', type: 'varchar', length: 16, nullable: true })
  secondFactor: string | null;

  @Column({ name: 'created_ms', type: 'bigint', transformer: integerColumn })
  createdMs: number;
}
