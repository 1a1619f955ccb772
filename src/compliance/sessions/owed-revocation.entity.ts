import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { SessionRevocationReason } from './attester.service';

/** `pending`: owed, not yet mined. `mined`: the registry's revoke was mined (txHash). */
export type OwedRevocationStatus = 'pending' | 'mined';

/**
 * A session revocation the service owes (issue 58): written BEFORE the registry's revoke is sent,
 * settled once it is mined. A revocation that cannot go out (the attester cannot pay, the RPC
 * does not answer, the registry refuses the key) stays `pending` and is sent again every
 * REVOCATION_RETRY_MS by whichever instance holds the lock, so it survives a restart, a crash
 * between the decision and the transaction, and an unfunded attester. One pending row per wallet
 * (a partial unique index): a second revocation of the same wallet joins the first.
 */
@Entity('compliance_revocations')
@Index(['status', 'requestedAt'])
@Index('UQ_compliance_revocations_pending_wallet', ['walletAddress'], {
  unique: true,
  where: "status = 'pending'",
})
export class OwedRevocation {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'wallet_address', type: 'varchar', length: 42 })
  walletAddress: string;

  /** session.revoked's `reason` (design §9). */
  @Column({ type: 'varchar', length: 32 })
  reason: SessionRevocationReason;

  /** Who asked for it (the operator's CLI, the screening watcher as the system). */
  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType: string;

  @Column({ name: 'actor_id', type: 'varchar', length: 64, nullable: true })
  actorId: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: OwedRevocationStatus;

  /** When the service first owed it: the age the metric and the alert measure. */
  @Column({ name: 'requested_at', type: Date })
  requestedAt: Date;

  /** Sends tried and failed (0 until one fails). */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_attempt_at', type: Date, nullable: true })
  lastAttemptAt: Date | null;

  /** Why it waits (the last failure, in words an operator can act on); null once mined. */
  @Column({ name: 'last_error', type: 'varchar', length: 300, nullable: true })
  lastError: string | null;

  @Column({ name: 'tx_hash', type: 'varchar', length: 66, nullable: true })
  txHash: string | null;

  /** The attester address whose transaction mined (the primary, or the standby). */
  @Column({ name: 'mined_by', type: 'varchar', length: 42, nullable: true })
  minedBy: string | null;

  @Column({ name: 'mined_at', type: Date, nullable: true })
  minedAt: Date | null;
}
