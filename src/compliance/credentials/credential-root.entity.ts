import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A root of the issuer's credential tree, as pushed by the issuer's operator path (the CLI). The
 * verifier accepts the latest one and, unless the latest retires it, the one before: a rotation
 * by issuance keeps proofs in flight working, a rotation by revocation must not.
 */
@Entity('credential_roots')
export class CredentialRoot {
  @PrimaryGeneratedColumn('increment')
  id: number;

  /** Decimal field element. */
  @Column({ type: 'varchar', length: 80 })
  root: string;

  /** Pushed by a revocation: the previous root (which still holds the revoked leaf) stops verifying. */
  @Column({ name: 'retires_previous', type: 'boolean', default: false })
  retiresPrevious: boolean;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
