/**
 * Layout of the public signals of circuits/compliance_credential.circom, in snarkjs order
 * (circuit outputs first, then the public inputs in declaration order).
 */
export const PUBLIC_SIGNAL = Object.freeze({
  nullifier: 0,
  issuerX: 1,
  issuerY: 2,
  wallet: 3,
});
export const PUBLIC_SIGNAL_COUNT = 4;

/** Domain tags hashed into the credential message and the nullifier (ASCII, big-endian). */
export const CREDENTIAL_TAG = BigInt('0x' + Buffer.from('cgk/credential/v1').toString('hex'));
export const NULLIFIER_TAG = BigInt('0x' + Buffer.from('cgk/nullifier/v1').toString('hex'));
