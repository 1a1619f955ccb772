import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';

const unixSeconds = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/**
 * A credential issuer the operator registered (`npm run cli -- issuers add`): its name is what
 * `POST /verify` answers with. Revoking it refuses every proof of its credentials at once
 * (CREDENTIAL_ISSUER_REVOKED), whatever key signed them.
 */
@Entity('credential_issuers')
export class CredentialIssuer {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @Column({ name: 'revoked_at', type: 'bigint', nullable: true, transformer: unixSeconds })
  revokedAt: number | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}

/**
 * One Baby Jubjub public key of an issuer. A rotation retires the current key (`retiredAt`) and
 * adds the new one: credentials signed by the retired key keep verifying until they expire (or
 * until the key's `validUntil`, when the operator set one).
 */
@Entity('credential_issuer_keys')
@Index(['x', 'y'], { unique: true })
export class CredentialIssuerKey {
  @PrimaryGeneratedColumn('increment')
  id: number;

  @Index()
  @Column({ name: 'issuer_name', type: 'varchar', length: 64 })
  issuerName: string;

  /** Decimal coordinates, as the circuit's public signals carry them. */
  @Column({ type: 'varchar', length: 80 })
  x: string;

  @Column({ type: 'varchar', length: 80 })
  y: string;

  /** Unix seconds: proofs of this key are accepted from then... */
  @Column({ name: 'valid_from', type: 'bigint', transformer: unixSeconds })
  validFrom: number;

  /** ...until then (null: no end of its own). */
  @Column({ name: 'valid_until', type: 'bigint', nullable: true, transformer: unixSeconds })
  validUntil: number | null;

  /** Set by a rotation: the issuer signs no new credential with it. */
  @Column({ name: 'retired_at', type: 'bigint', nullable: true, transformer: unixSeconds })
  retiredAt: number | null;
}
