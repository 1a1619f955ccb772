import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A wallet belongs to at most one account (the primary key is the checksummed address). */
@Entity('wallets')
export class Wallet {
  @PrimaryColumn({ type: 'varchar', length: 42 })
  address: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @CreateDateColumn({ name: 'bound_at' })
  boundAt: Date;
}
