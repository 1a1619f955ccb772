/**
 * Off-circuit half of the compliance credential (see circuits/compliance_credential.circom):
 * the holder's secret, the issuer's EdDSA-Poseidon signature, and the circuit input that proves
 * it. Test-network tooling: uses circomlibjs, a devDependency.
 */
import { randomBytes } from 'node:crypto';

import { CREDENTIAL_TAG, NULLIFIER_TAG } from './compliance-circuit';
import { BN254_SCALAR_FIELD, walletToFieldElement } from './field';
import type { IssuerPublicKey } from './issuer-key';

type FieldEl = Uint8Array;
type BabyJubField = { toObject(a: FieldEl): bigint; e(a: bigint): FieldEl };
type Eddsa = {
  F: BabyJubField;
  prv2pub(prv: Buffer): [FieldEl, FieldEl];
  signPoseidon(prv: Buffer, msg: FieldEl): { R8: [FieldEl, FieldEl]; S: bigint };
};
type Poseidon = ((inputs: bigint[]) => FieldEl) & { F: BabyJubField };
type CircomlibJs = { buildEddsa(): Promise<Eddsa>; buildPoseidon(): Promise<Poseidon> };

let primitives: Promise<{ eddsa: Eddsa; poseidon: Poseidon }> | undefined;

function loadPrimitives(): Promise<{ eddsa: Eddsa; poseidon: Poseidon }> {
  primitives ??= (async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const circomlibjs: CircomlibJs = require('circomlibjs');
    const [eddsa, poseidon] = await Promise.all([
      circomlibjs.buildEddsa(),
      circomlibjs.buildPoseidon(),
    ]);
    return { eddsa, poseidon };
  })();
  return primitives;
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

/** A fresh holder secret: 248 random bits (below the field), as a decimal string. */
export function newCredentialSecret(): string {
  for (;;) {
    const secret = BigInt('0x' + randomBytes(31).toString('hex'));
    if (secret !== 0n) return secret.toString();
  }
}

export async function issuerPublicKeyOf(issuerPrivateKey: string): Promise<IssuerPublicKey> {
  const { eddsa } = await loadPrimitives();
  const [x, y] = eddsa.prv2pub(issuerKeyBuffer(issuerPrivateKey));
  return { x: eddsa.F.toObject(x).toString(), y: eddsa.F.toObject(y).toString() };
}

/** Poseidon(credentialSecret): all the issuer needs to see of the holder's secret. */
export async function holderCommitment(credentialSecret: bigint | string): Promise<string> {
  const { poseidon } = await loadPrimitives();
  return poseidon.F.toObject(poseidon([toFieldSecret(credentialSecret)])).toString();
}

export type ComplianceCredential = {
  wallet: string;
  issuer: IssuerPublicKey;
  signature: { R8x: string; R8y: string; S: string };
};

/** The issuer's side: signs Poseidon(CREDENTIAL_TAG, wallet, holderCommitment). */
export async function issueComplianceCredential(params: {
  wallet: string;
  holderCommitment: string;
  issuerPrivateKey: string;
}): Promise<ComplianceCredential> {
  const wallet = walletToFieldElement(params.wallet);
  if (wallet === null) throw new Error('wallet must be a 0x-prefixed 40-hex-character address');
  const { eddsa, poseidon } = await loadPrimitives();
  const prv = issuerKeyBuffer(params.issuerPrivateKey);
  const message = poseidon([CREDENTIAL_TAG, BigInt(wallet), BigInt(params.holderCommitment)]);
  const sig = eddsa.signPoseidon(prv, message);
  const [ax, ay] = eddsa.prv2pub(prv);
  return {
    wallet: params.wallet,
    issuer: { x: eddsa.F.toObject(ax).toString(), y: eddsa.F.toObject(ay).toString() },
    signature: {
      R8x: eddsa.F.toObject(sig.R8[0]).toString(),
      R8y: eddsa.F.toObject(sig.R8[1]).toString(),
      S: sig.S.toString(),
    },
  };
}

/** Poseidon(NULLIFIER_TAG, credentialSecret, wallet): what the circuit outputs as publicSignals[0]. */
export async function expectedNullifier(
  credentialSecret: bigint | string,
  wallet: string,
): Promise<string> {
  const walletField = walletToFieldElement(wallet);
  if (walletField === null)
    throw new Error('wallet must be a 0x-prefixed 40-hex-character address');
  const { poseidon } = await loadPrimitives();
  return poseidon.F.toObject(
    poseidon([NULLIFIER_TAG, toFieldSecret(credentialSecret), BigInt(walletField)]),
  ).toString();
}

/** Input of circuits/compliance_credential.circom (signal name -> decimal string). */
export function complianceCircuitInput(
  credential: ComplianceCredential,
  credentialSecret: bigint | string,
) {
  return {
    issuerAx: credential.issuer.x,
    issuerAy: credential.issuer.y,
    wallet: walletToFieldElement(credential.wallet) as string,
    credentialSecret: toFieldSecret(credentialSecret).toString(),
    sigR8x: credential.signature.R8x,
    sigR8y: credential.signature.R8y,
    sigS: credential.signature.S,
  };
}
