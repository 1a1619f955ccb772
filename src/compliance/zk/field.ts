/** BN254 (alt_bn128) scalar field: circuit signals and public inputs live here. */
export const BN254_SCALAR_FIELD =
  21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/** BN254 base field: coordinates of proof points (pi_a, pi_b, pi_c). */
export const BN254_BASE_FIELD =
  21888242871839275222246405745257275088696311157297823662689037894645226208583n;

const CANONICAL_DECIMAL = /^(0|[1-9][0-9]{0,77})$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A canonical decimal string (no sign, no leading zeros) strictly below `modulus`, else null. */
export function parseFieldElement(value: unknown, modulus = BN254_SCALAR_FIELD): bigint | null {
  if (typeof value !== 'string' || !CANONICAL_DECIMAL.test(value)) return null;
  const n = BigInt(value);
  return n < modulus ? n : null;
}

export function isEvmAddress(value: unknown): value is string {
  return typeof value === 'string' && EVM_ADDRESS.test(value);
}

/**
 * The wallet as the circuit sees it: the 160-bit address as a decimal field element.
 * Case-insensitive (checksum validation is the request DTO's job). Null for a non-address.
 */
export function walletToFieldElement(address: unknown): string | null {
  if (!isEvmAddress(address)) return null;
  return BigInt(address.toLowerCase()).toString(10);
}
