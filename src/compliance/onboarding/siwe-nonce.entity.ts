import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

const epochMs = { to: (value: number) => value, from: (value: string | number) => Number(value) };

/**
 * A Sign-In-with-Ethereum nonce issued by GET /onboarding/nonce: stored as its SHA-256 (a leaked
 * table gives no usable nonce), bound to the account that asked for it, single use (deleted when
 * consumed) and short-lived.
 */
@Entity('siwe_nonces')
export class SiweNonce {
  @PrimaryColumn({ name: 'nonce_hash', type: 'varchar', length: 64 })
  nonceHash: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  /** Unix milliseconds: a plain number compares the same way on SQLite and PostgreSQL. */
  @Index()
  @Column({ name: 'expires_at', type: 'bigint', transformer: epochMs })
  expiresAt: number;
}
