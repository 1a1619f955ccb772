import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

const bigintNumber = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/**
 * pending: waiting for its transaction (the chain watch looks for it); relayed: its transaction
 * went through the relay, whose watcher records it; executed; expired: its deadline passed unmined.
 */
export type ExecutionState = 'pending' | 'relayed' | 'executed' | 'expired';

/**
 * One compliance receipt: the JWS as issued (its payload is the document), and once the
 * transaction is mined the execution JWS and its execution object. Written by
 * ReceiptsService.issue; only the execution columns are ever updated, once (execution_state
 * 'pending' -> 'executed' in one conditional UPDATE). Read by keyset on (issued_ms, seq).
 */
@Entity('compliance_receipts')
@Index('IDX_compliance_receipts_account', ['accountId', 'issuedMs', 'seq'])
@Index('IDX_compliance_receipts_wallet', ['accountId', 'wallet', 'issuedMs', 'seq'])
@Index('IDX_compliance_receipts_call', ['callKey'])
@Index('IDX_compliance_receipts_watch', ['executionState', 'blockNumber'])
export class ComplianceReceipt {
  /** Write order, the tie-break of the keyset (a bigint: PostgreSQL returns it as a string). */
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq: number | string;

  @Column({ type: 'varchar', length: 36, unique: true })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  /** Checksummed. */
  @Column({ type: 'varchar', length: 42 })
  wallet: string;

  @Column({ type: 'varchar', length: 16 })
  operation: string;

  @Column({ name: 'issued_ms', type: 'bigint', transformer: bigintNumber })
  issuedMs: number;

  /** sha256 of the built transaction's from, to, value and data: how a mined one finds its receipt. */
  @Column({ name: 'call_key', type: 'varchar', length: 64 })
  callKey: string;

  /** The block the build read and simulated at: where watching for its transaction starts. */
  @Column({ name: 'block_number', type: 'bigint', transformer: bigintNumber })
  blockNumber: number;

  /** Unix seconds: after it the transaction can no longer be mined. */
  @Column({ type: 'bigint', transformer: bigintNumber })
  deadline: number;

  @Column({ type: 'text' })
  jws: string;

  @Column({ name: 'execution_state', type: 'varchar', length: 16 })
  executionState: ExecutionState;

  @Column({ name: 'tx_hash', type: 'varchar', length: 66, nullable: true })
  txHash: string | null;

  /** The execution object as signed (JSON text), for the `receipt` view and the export. */
  @Column({ type: 'text', nullable: true })
  execution: string | null;

  @Column({ name: 'execution_jws', type: 'text', nullable: true })
  executionJws: string | null;
}
