import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '../../auth/roles';

/** An invitation to join an account with a role; only a SHA-256 of its token is stored. */
@Entity('invitations')
@Index('IDX_invitations_account', ['accountId', 'createdAt'])
export class Invitation {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  /** Lower-cased, like users' emails. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 16 })
  role: Role;

  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true, select: false })
  tokenHash: string;

  @Column({ name: 'invited_by_user_id', type: 'varchar', length: 36, nullable: true })
  invitedByUserId: string | null;

  @Column({ name: 'expires_at', type: Date })
  expiresAt: Date;

  @Column({ name: 'accepted_at', nullable: true, type: Date })
  acceptedAt: Date | null;

  @Column({ name: 'accepted_user_id', type: 'varchar', length: 36, nullable: true })
  acceptedUserId: string | null;

  @Column({ name: 'revoked_at', nullable: true, type: Date })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
