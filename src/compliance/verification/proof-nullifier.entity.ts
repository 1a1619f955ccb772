import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A used proof nullifier. The primary key is the replay guard: the row is inserted BEFORE the
 * session is activated, so of two concurrent submissions of one credential only one can win
 * (a Groth16 proof can be re-randomised, so replays are keyed on the nullifier, not the proof).
 */
@Entity('proof_nullifiers')
export class ProofNullifier {
  /** Decimal string below the BN254 scalar field (at most 77 digits). */
  @PrimaryColumn({ type: 'varchar', length: 80 })
  nullifier: string;

  @Column({ name: 'wallet_address', type: 'varchar', length: 42 })
  walletAddress: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @CreateDateColumn({ name: 'used_at' })
  usedAt: Date;
}
