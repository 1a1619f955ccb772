import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

const bigintNumber = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/** A user's TOTP authenticator: pending (enabledAt null) from setup until a code confirms it. */
@Entity('user_totp')
export class UserTotp {
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  /** AES-256-GCM (totp-secret-cipher.ts); never returned after setup. */
  @Column({ name: 'secret_encrypted', type: 'varchar', length: 255 })
  secretEncrypted: string;

  @Column({ name: 'enabled_at', nullable: true, type: Date })
  enabledAt: Date | null;

  /** The RFC 6238 time step of the last accepted code: a code at or before it is refused. */
  @Column({ name: 'last_used_step', type: 'bigint', nullable: true, transformer: bigintNumber })
  lastUsedStep: number | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
