import { Column, Entity, PrimaryColumn } from 'typeorm';

const bigintNumber = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/**
 * The receipts' view of each wallet's current compliance session as the service opened it (the
 * `session.activated` events, kept by SessionOpeningsSink): what it stood on and the policy it was
 * opened under. A build reads one row by wallet; a revocation deletes it.
 */
@Entity('receipt_session_openings')
export class SessionOpening {
  @PrimaryColumn({ name: 'wallet_address', type: 'varchar', length: 42 })
  walletAddress: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  /** Unix seconds (chain time): the registry's activeUntil the activation mined. */
  @Column({ name: 'active_until', type: 'bigint', transformer: bigintNumber })
  activeUntil: number;

  /** demo | proof | attestation. */
  @Column({ type: 'varchar', length: 16 })
  via: string;

  /** The source as the event named it (JSON): { kind, name, uid } or null. */
  @Column({ type: 'text', nullable: true })
  source: string | null;

  @Column({ name: 'tx_hash', type: 'varchar', length: 66, nullable: true })
  txHash: string | null;

  @Column({ name: 'block_number', type: 'bigint', nullable: true, transformer: bigintNumber })
  blockNumber: number | null;

  /** The account's compliance policy when the session opened (JSON). */
  @Column({ type: 'text' })
  policy: string;

  /** Its version when the session opened (0: the default policy, never set); null for rows written before versions. */
  @Column({ name: 'policy_version', type: 'integer', nullable: true })
  policyVersion: number | null;
}
