import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { msOrNull } from '../webhook-endpoint.entity';

/**
 * A compliance session the service opened, kept until session.expiring was recorded for it (once
 * per session: expiringSentMs is set by the one conditional UPDATE that wins). A renewal replaces
 * the wallet's row; a revocation deletes it.
 */
@Entity('watched_sessions')
export class WatchedSession {
  @PrimaryColumn({ name: 'wallet_address', type: 'varchar', length: 42 })
  walletAddress: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  /** Unix seconds (chain time), as ComplianceRegistry.activeUntil. */
  @Index()
  @Column({ name: 'active_until', type: 'bigint', transformer: msOrNull() })
  activeUntil: number;

  @Column({ name: 'expiring_sent_ms', type: 'bigint', nullable: true, transformer: msOrNull() })
  expiringSentMs: number | null;
}
