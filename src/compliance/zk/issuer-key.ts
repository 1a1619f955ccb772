import { BN254_SCALAR_FIELD, parseFieldElement } from './field';
import { DEVNET_ISSUER_PUBLIC_KEY } from './devnet-issuer';

/**
 * Public key of the credential issuer: a Baby Jubjub point (EdDSA-Poseidon, circomlib),
 * coordinates as decimal strings. Configured as `ZK_ISSUER_PUBLIC_KEY="<x>,<y>"`.
 */
export type IssuerPublicKey = { x: string; y: string };

// Twisted Edwards form of Baby Jubjub: a*x^2 + y^2 = 1 + d*x^2*y^2 (EIP-2494).
const BABYJUB_A = 168700n;
const BABYJUB_D = 168696n;

export function isOnBabyJubjub(x: bigint, y: bigint): boolean {
  const p = BN254_SCALAR_FIELD;
  const x2 = (x * x) % p;
  const y2 = (y * y) % p;
  return (BABYJUB_A * x2 + y2) % p === (1n + ((BABYJUB_D * x2) % p) * y2) % p;
}

/**
 * Parses `"<x>,<y>"` (or `{x, y}`); throws with a clear message on bad configuration so a
 * service fails at boot, not on the first proof.
 */
export function parseIssuerPublicKey(value: string | IssuerPublicKey): IssuerPublicKey {
  const [xs, ys, ...rest] =
    typeof value === 'string' ? value.split(',').map((s) => s.trim()) : [value.x, value.y];
  const x = parseFieldElement(xs);
  const y = parseFieldElement(ys);
  if (rest.length > 0 || x === null || y === null) {
    throw new Error('issuer public key must be "<x>,<y>": two decimal Baby Jubjub coordinates');
  }
  if (!isOnBabyJubjub(x, y) || (x === 0n && y === 1n)) {
    throw new Error('issuer public key is not a point of Baby Jubjub (or is the identity)');
  }
  return { x: x.toString(), y: y.toString() };
}

export function formatIssuerPublicKey(key: IssuerPublicKey): string {
  return `${key.x},${key.y}`;
}

/** The issuer key the configuration names (`ZK_ISSUER_PUBLIC_KEY`), else the public devnet one. */
export function configuredIssuerPublicKey(value: string | undefined): IssuerPublicKey {
  return value === undefined ? DEVNET_ISSUER_PUBLIC_KEY : parseIssuerPublicKey(value);
}
