import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A refresh token (its JWT id); only a SHA-256 of the token is stored. Used once, then rotated. */
@Entity('refresh_tokens')
export class RefreshToken {
  /** The token's `jti`. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Index()
  @Column({ name: 'session_id', type: 'varchar', length: 36 })
  sessionId: string;

  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Column({ name: 'expires_at', type: Date })
  expiresAt: Date;

  /** Set when rotated; presenting it again is reuse and revokes the session. */
  @Column({ name: 'used_at', nullable: true, type: Date })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
