/**
 * Off-circuit half of the compliance credential (see circuits/compliance_credential.circom):
 * the holder's secret, the credential leaf with its expiry, the issuer's EdDSA-Poseidon signature
 * and the circuit input that proves it. Hashes are poseidon-lite (circomlib-compatible, sync);
 * signing uses circomlibjs (a dependency: `credentials issue` works in a production install too).
 */
import { randomBytes } from 'node:crypto';
import { poseidon1, poseidon3, poseidon4 } from 'poseidon-lite';

import { CREDENTIAL_TAG, NULLIFIER_TAG } from './compliance-circuit';
import { BN254_SCALAR_FIELD, walletToFieldElement } from './field';
import type { IssuerPublicKey } from './issuer-key';

type FieldEl = Uint8Array;
type Eddsa = {
  F: { toObject(a: FieldEl): bigint; e(a: bigint): FieldEl };
  prv2pub(prv: Buffer): [FieldEl, FieldEl];
  signPoseidon(prv: Buffer, msg: FieldEl): { R8: [FieldEl, FieldEl]; S: bigint };
};

let eddsaPromise: Promise<Eddsa> | undefined;

function loadEddsa(): Promise<Eddsa> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  eddsaPromise ??= (require('circomlibjs') as { buildEddsa(): Promise<Eddsa> }).buildEddsa();
  return eddsaPromise;
}

function issuerKeyBuffer(privateKeyHex: string): Buffer {
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(privateKeyHex)) {
    throw new Error('issuer private key must be 32 bytes of hex');
  }
  return Buffer.from(privateKeyHex.replace(/^0x/, ''), 'hex');
}

function toFieldSecret(secret: bigint | string): bigint {
  const n = BigInt(secret);
  if (n <= 0n || n >= BN254_SCALAR_FIELD) throw new Error('credentialSecret must be in ]0, p[');
  return n;
}

function walletField(wallet: string): bigint {
  const field = walletToFieldElement(wallet);
  if (field === null) throw new Error('wallet must be a 0x-prefixed 40-hex-character address');
  return BigInt(field);
}

/** A fresh holder secret: 248 random bits (below the field), as a decimal string. */
export function newCredentialSecret(): string {
  for (;;) {
    const secret = BigInt('0x' + randomBytes(31).toString('hex'));
    if (secret !== 0n) return secret.toString();
  }
}

export async function issuerPublicKeyOf(issuerPrivateKey: string): Promise<IssuerPublicKey> {
  const eddsa = await loadEddsa();
  const [x, y] = eddsa.prv2pub(issuerKeyBuffer(issuerPrivateKey));
  return { x: eddsa.F.toObject(x).toString(), y: eddsa.F.toObject(y).toString() };
}

/** Poseidon(credentialSecret): all the issuer needs to see of the holder's secret. */
export function holderCommitment(credentialSecret: bigint | string): string {
  return poseidon1([toFieldSecret(credentialSecret)]).toString();
}

/** The credential as a leaf of the issuer's tree: Poseidon(TAG, wallet, holderCommitment, expiresAt). */
export function credentialLeaf(params: {
  wallet: string;
  holderCommitment: string;
  expiresAt: number;
}): string {
  return poseidon4([
    CREDENTIAL_TAG,
    walletField(params.wallet),
    BigInt(params.holderCommitment),
    BigInt(params.expiresAt),
  ]).toString();
}

export type SignedCredential = {
  wallet: string;
  /** Unix seconds; the circuit proves `now < expiresAt`. */
  expiresAt: number;
  leaf: string;
  issuer: IssuerPublicKey;
  signature: { R8x: string; R8y: string; S: string };
};

/** The issuer's side: signs the credential leaf (wallet, holder commitment, expiry). */
export async function signCredential(params: {
  wallet: string;
  holderCommitment: string;
  expiresAt: number;
  issuerPrivateKey: string;
}): Promise<SignedCredential> {
  const eddsa = await loadEddsa();
  const prv = issuerKeyBuffer(params.issuerPrivateKey);
  const leaf = credentialLeaf(params);
  const sig = eddsa.signPoseidon(prv, eddsa.F.e(BigInt(leaf)));
  const [ax, ay] = eddsa.prv2pub(prv);
  return {
    wallet: params.wallet,
    expiresAt: params.expiresAt,
    leaf,
    issuer: { x: eddsa.F.toObject(ax).toString(), y: eddsa.F.toObject(ay).toString() },
    signature: {
      R8x: eddsa.F.toObject(sig.R8[0]).toString(),
      R8y: eddsa.F.toObject(sig.R8[1]).toString(),
      S: sig.S.toString(),
    },
  };
}

/** Poseidon(NULLIFIER_TAG, credentialSecret, wallet): what the circuit outputs as publicSignals[0]. */
export function expectedNullifier(credentialSecret: bigint | string, wallet: string): string {
  return poseidon3([
    NULLIFIER_TAG,
    toFieldSecret(credentialSecret),
    walletField(wallet),
  ]).toString();
}
