import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** One dashboard login: the family of its refresh tokens. Revoking it ends every token of the login. */
@Entity('auth_sessions')
export class AuthSession {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Index()
  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @Column({ name: 'revoked_at', nullable: true, type: Date })
  revokedAt: Date | null;

  /** logout | reuse_detected */
  @Column({ name: 'revoked_reason', type: 'varchar', length: 32, nullable: true })
  revokedReason: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
