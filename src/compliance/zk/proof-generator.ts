/**
 * Real Groth16 proofs for tests, the bench and the `zk:prove` script: proves a credential file for
 * a challenge. Test-network tooling (circomlibjs is a devDependency); the service only verifies.
 */
import { PUBLIC_SIGNAL } from './compliance-circuit';
import type { CredentialFile } from './credential-file';
import {
  holderCommitment,
  newCredentialSecret,
  signCredential,
  type SignedCredential,
} from './credential-issuer';
import { CredentialTree } from './credential-tree';
import { DEVNET_ISSUER_PRIVATE_KEY } from './devnet-issuer';
import { walletToFieldElement } from './field';
import { loadSnarkjs, withBn128Curve, type Groth16Proof } from './snarkjs';
import { resolveZkArtifact, ZK_ARTIFACTS } from './zk-artifacts';

export type GeneratedComplianceProof = {
  proof: Groth16Proof;
  /** [nullifier, issuerX, issuerY, wallet, challenge, now, expiresAt, root], decimal strings. */
  publicSignals: string[];
  nullifier: string;
};

/** Input of circuits/compliance_credential.circom (signal name -> decimal string(s)). */
export function complianceCircuitInput(
  credential: CredentialFile,
  statement: { challenge: string; now: number },
) {
  return {
    issuerAx: credential.issuer.x,
    issuerAy: credential.issuer.y,
    wallet: walletToFieldElement(credential.wallet) as string,
    challenge: BigInt(statement.challenge).toString(),
    now: String(statement.now),
    expiresAt: String(credential.expiresAt),
    root: credential.merkle.root,
    credentialSecret: credential.credentialSecret,
    sigR8x: credential.signature.R8x,
    sigR8y: credential.signature.R8y,
    sigS: credential.signature.S,
    siblings: credential.merkle.siblings,
    pathIndices: credential.merkle.pathIndices.map(String),
  };
}

/**
 * Proves "I hold this unexpired, unrevoked credential" for `challenge` at `now` (default: this
 * machine's clock). Throws a clear error for an expired credential (the circuit cannot prove it).
 */
export async function proveCredential(
  credential: CredentialFile,
  statement: { challenge: string; now?: number },
  artifacts: { wasmPath?: string; zkeyPath?: string } = {},
): Promise<GeneratedComplianceProof> {
  const now = statement.now ?? Math.floor(Date.now() / 1000);
  if (credential.expiresAt <= now) {
    throw new Error(
      `the credential expired at ${new Date(credential.expiresAt * 1000).toISOString()}`,
    );
  }
  const { proof, publicSignals } = await withBn128Curve(() =>
    loadSnarkjs().groth16.fullProve(
      complianceCircuitInput(credential, { challenge: statement.challenge, now }),
      resolveZkArtifact(artifacts.wasmPath ?? ZK_ARTIFACTS.wasm),
      resolveZkArtifact(artifacts.zkeyPath ?? ZK_ARTIFACTS.zkey),
    ),
  );
  return { proof, publicSignals, nullifier: publicSignals[PUBLIC_SIGNAL.nullifier] };
}

/** Assembles a credential file from a signed credential and its place in the issuer's tree. */
export function credentialFile(
  signed: SignedCredential,
  credentialSecret: string,
  tree: CredentialTree,
  leafIndex: number,
): CredentialFile {
  return { version: 2, ...signed, credentialSecret, leafIndex, merkle: tree.path(leafIndex) };
}

/**
 * A credential alone in a fresh tree (root = its own tree's root): for unit tests and the bench,
 * where no issuer database is at hand. Default issuer: the devnet one.
 */
export async function mintStandaloneCredential(options: {
  wallet: string;
  expiresAt?: number;
  issuerPrivateKey?: string;
  credentialSecret?: string;
}): Promise<CredentialFile> {
  const credentialSecret = options.credentialSecret ?? newCredentialSecret();
  const signed = await signCredential({
    wallet: options.wallet,
    holderCommitment: holderCommitment(credentialSecret),
    expiresAt: options.expiresAt ?? Math.floor(Date.now() / 1000) + 86_400,
    issuerPrivateKey: options.issuerPrivateKey ?? DEVNET_ISSUER_PRIVATE_KEY,
  });
  return credentialFile(signed, credentialSecret, CredentialTree.fromLeaves([signed.leaf]), 0);
}
