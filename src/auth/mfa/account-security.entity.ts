import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** An account's sign-in policy, set by its owner; no row means the defaults (MFA optional). */
@Entity('account_security')
export class AccountSecurity {
  @PrimaryColumn({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @Column({ name: 'mfa_required', type: 'boolean', default: false })
  mfaRequired: boolean;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt: Date;
}
