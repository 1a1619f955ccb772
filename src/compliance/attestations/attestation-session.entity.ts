import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

const unixSeconds = {
  to: (value: number) => value,
  from: (value: string | number) => Number(value),
};

/**
 * Which EAS attestation opened which session (issue 41): written when an attestation opens or
 * renews a wallet's session, so the screening watcher can end the session once the attestation is
 * revoked. A session is named by its wallet and its on-chain activeUntil, as verify_challenges
 * names the sessions proofs opened.
 */
@Entity('attestation_sessions')
@Index(['walletAddress', 'sessionUntil'])
export class AttestationSession {
  @PrimaryGeneratedColumn('increment')
  id: number;

  @Column({ name: 'wallet_address', type: 'varchar', length: 42 })
  walletAddress: string;

  /** Unix seconds: the session end the activation mined (the registry's activeUntil). */
  @Column({ name: 'session_until', type: 'bigint', transformer: unixSeconds })
  sessionUntil: number;

  /** The accepted source's name in the network file (e.g. "verified-account"). */
  @Column({ type: 'varchar', length: 64 })
  source: string;

  /** The EAS attestation uid (0x + 64 hex). */
  @Column({ type: 'varchar', length: 66 })
  uid: string;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
