import { Column, Entity, PrimaryColumn } from 'typeorm';

const bigintNumber = {
  to: (value: number) => value,
  from: (value: string | number) => Number(value),
};

/**
 * Every public key receipts were ever signed with, by kid (RFC 7638 thumbprint): the JWKS at
 * /.well-known/jwks.json lists them all, so a rotation of RECEIPT_SIGNING_KEY leaves every
 * receipt signed before it verifiable. Inserted at start by the instance that first uses a key.
 */
@Entity('receipt_signing_keys')
export class ReceiptSigningKey {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid: string;

  /** The public JWK (JSON): kty, crv, x, y. */
  @Column({ name: 'public_jwk', type: 'text' })
  publicJwk: string;

  @Column({ name: 'first_used_ms', type: 'bigint', transformer: bigintNumber })
  firstUsedMs: number;
}
