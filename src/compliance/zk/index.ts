// Service-side (runtime) surface: verification only. Proof generation lives in
// ./proof-generator (test/devnet tooling, needs the circomlibjs devDependency).
export { PUBLIC_SIGNAL, PUBLIC_SIGNAL_COUNT } from './compliance-circuit';
export { DEVNET_ISSUER_PUBLIC_KEY } from './devnet-issuer';
export { BN254_SCALAR_FIELD, walletToFieldElement } from './field';
export { formatIssuerPublicKey, parseIssuerPublicKey, type IssuerPublicKey } from './issuer-key';
export type { Groth16Proof, Groth16VerificationKey } from './snarkjs';
export {
  verifyComplianceProof,
  type ComplianceProofSubmission,
  type ComplianceProofVerification,
  type ComplianceVerifierConfig,
} from './verify-compliance-proof';
export { loadComplianceVerificationKey, resolveZkArtifact, ZK_ARTIFACTS } from './zk-artifacts';
