import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

const unixSeconds = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/**
 * A challenge from GET /verify/challenge: bound to the account and the wallet that asked, single
 * use, 10 minutes. Once a proof for it opened a session, the row also records which credential
 * (nullifier) opened it and until when, so revoking the credential can end that session.
 */
@Entity('verify_challenges')
export class VerifyChallenge {
  /** Decimal field element (the circuit's public input). */
  @PrimaryColumn({ type: 'varchar', length: 80 })
  challenge: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @Index()
  @Column({ name: 'wallet_address', type: 'varchar', length: 42 })
  walletAddress: string;

  /** Unix seconds, like the circuit's times. */
  @Column({ name: 'expires_at', type: 'bigint', transformer: unixSeconds })
  expiresAt: number;

  @Column({ name: 'used_at', type: 'bigint', nullable: true, transformer: unixSeconds })
  usedAt: number | null;

  @Index()
  @Column({ type: 'varchar', length: 80, nullable: true })
  nullifier: string | null;

  /** The issuer whose credential opened the session (issue 40): revoking it can end them. */
  @Column({ name: 'issuer_name', type: 'varchar', length: 64, nullable: true })
  issuerName: string | null;

  @Column({ name: 'session_until', type: 'bigint', nullable: true, transformer: unixSeconds })
  sessionUntil: number | null;
}
