import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** One single-use recovery code of a user, stored as an HMAC only (shown once, at enable). */
@Entity('mfa_recovery_codes')
@Index(['userId', 'codeHash'], { unique: true })
export class RecoveryCode {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ name: 'code_hash', type: 'varchar', length: 64 })
  codeHash: string;

  @Column({ name: 'used_at', nullable: true, type: Date })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
