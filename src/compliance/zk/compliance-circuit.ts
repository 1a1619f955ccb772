/**
 * Layout of the public signals of circuits/compliance_credential.circom, in snarkjs order
 * (circuit outputs first, then the public inputs in declaration order).
 */
export const PUBLIC_SIGNAL = Object.freeze({
  nullifier: 0,
  issuerX: 1,
  issuerY: 2,
  wallet: 3,
  challenge: 4,
  now: 5,
  expiresAt: 6,
  root: 7,
});
export const PUBLIC_SIGNAL_COUNT = 8;

/** Depth of the issuer's Poseidon Merkle tree of valid credentials (2^20 leaves). */
export const CREDENTIAL_TREE_DEPTH = 20;

/** Domain tags hashed into the credential leaf and the nullifier (ASCII, big-endian). */
export const CREDENTIAL_TAG = BigInt('0x' + Buffer.from('cgk/credential/v2').toString('hex'));
export const NULLIFIER_TAG = BigInt('0x' + Buffer.from('cgk/nullifier/v1').toString('hex'));
