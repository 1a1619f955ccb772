/**
 * Real Groth16 proofs for tests and the `zk:prove` script: mints a credential for the wallet
 * with the (devnet) issuer key and proves it. Test-network tooling (circomlibjs is a
 * devDependency); the service itself only verifies.
 */
import {
  complianceCircuitInput,
  holderCommitment,
  issueComplianceCredential,
  newCredentialSecret,
} from './credential-issuer';
import { DEVNET_ISSUER_PRIVATE_KEY } from './devnet-issuer';
import { PUBLIC_SIGNAL } from './compliance-circuit';
import { snarkjs, withBn128Curve, type Groth16Proof } from './snarkjs';
import { resolveZkArtifact, ZK_ARTIFACTS } from './zk-artifacts';

export type GenerateComplianceProofOptions = {
  /** 0x + 40 hex, any case. */
  wallet: string;
  /** Holder secret (decimal or bigint in ]0, p[); fresh random when omitted, so a fresh nullifier. */
  credentialSecret?: bigint | string;
  /** 32-byte hex; default: DEVNET_ISSUER_PRIVATE_KEY. */
  issuerPrivateKey?: string;
  wasmPath?: string;
  zkeyPath?: string;
};

export type GeneratedComplianceProof = {
  proof: Groth16Proof;
  /** [nullifier, issuerX, issuerY, wallet] as decimal strings. */
  publicSignals: string[];
  nullifier: string;
  credentialSecret: string;
};

export async function generateComplianceProof(
  options: GenerateComplianceProofOptions,
): Promise<GeneratedComplianceProof> {
  const credentialSecret = BigInt(options.credentialSecret ?? newCredentialSecret()).toString();
  const credential = await issueComplianceCredential({
    wallet: options.wallet,
    holderCommitment: await holderCommitment(credentialSecret),
    issuerPrivateKey: options.issuerPrivateKey ?? DEVNET_ISSUER_PRIVATE_KEY,
  });
  const { proof, publicSignals } = await withBn128Curve(() =>
    snarkjs.groth16.fullProve(
      complianceCircuitInput(credential, credentialSecret),
      resolveZkArtifact(options.wasmPath ?? ZK_ARTIFACTS.wasm),
      resolveZkArtifact(options.zkeyPath ?? ZK_ARTIFACTS.zkey),
    ),
  );
  return {
    proof,
    publicSignals,
    nullifier: publicSignals[PUBLIC_SIGNAL.nullifier],
    credentialSecret,
  };
}
