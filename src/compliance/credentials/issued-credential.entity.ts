import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A leaf of the DEMO issuer's credential tree (test network; a production issuer keeps its own
 * tree elsewhere and only pushes roots). Revoking empties the leaf: the tree is rebuilt from the
 * rows in leaf order with revoked leaves as 0.
 */
@Entity('issued_credentials')
export class IssuedCredential {
  @PrimaryColumn({ name: 'leaf_index', type: 'integer' })
  leafIndex: number;

  @Index()
  @Column({ name: 'wallet_address', type: 'varchar', length: 42 })
  walletAddress: string;

  @Column({ type: 'varchar', length: 80 })
  leaf: string;

  /** The nullifier its proofs carry: links the sessions it opened (verify_challenges). */
  @Column({ type: 'varchar', length: 80 })
  nullifier: string;

  @Column({
    name: 'expires_at',
    type: 'bigint',
    transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) },
  })
  expiresAt: number;

  @Column({ name: 'revoked_at', nullable: true, type: Date })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'issued_at' })
  issuedAt: Date;
}
