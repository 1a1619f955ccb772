import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

const ms = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

export type RelayedTxState = 'pending' | 'confirmed' | 'reverted' | 'dropped';

/**
 * A transaction relayed for an account, watched until its receipt: then transaction.confirmed or
 * transaction.reverted is recorded once (the conditional UPDATE out of `pending` decides which
 * instance records it).
 */
@Entity('relayed_transactions')
@Index('IDX_relayed_transactions_state', ['state', 'relayedMs'])
export class RelayedTransaction {
  @PrimaryColumn({ name: 'tx_hash', type: 'varchar', length: 66 })
  txHash: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @Column({ name: 'api_key_id', type: 'varchar', length: 36, nullable: true })
  apiKeyId: string | null;

  @Column({ name: 'from_address', type: 'varchar', length: 42 })
  fromAddress: string;

  @Column({ type: 'varchar', length: 32 })
  kind: string;

  @Column({ type: 'varchar', length: 16 })
  state: RelayedTxState;

  @Column({ name: 'relayed_ms', type: 'bigint', transformer: ms })
  relayedMs: number;

  @Column({ name: 'settled_ms', type: 'bigint', nullable: true, transformer: ms })
  settledMs: number | null;

  /** The compliance receipt of the build this transaction is (issue 56), when it is one. */
  @Column({ name: 'receipt_id', type: 'varchar', length: 36, nullable: true })
  receiptId: string | null;
}
