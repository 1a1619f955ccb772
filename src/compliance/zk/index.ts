// Service-side (runtime) surface: verification only. Issuing and proving live in
// ./credential-issuer and ./proof-generator (circomlibjs, a dependency since issue 40).
export { CREDENTIAL_TREE_DEPTH, PUBLIC_SIGNAL, PUBLIC_SIGNAL_COUNT } from './compliance-circuit';
export { DEVNET_ISSUER_PUBLIC_KEY } from './devnet-issuer';
export { BN254_SCALAR_FIELD, walletToFieldElement } from './field';
export { Groth16VerifierPool } from './groth16-verifier-pool';
export {
  configuredIssuerPublicKey,
  formatIssuerPublicKey,
  parseIssuerPublicKey,
  type IssuerPublicKey,
} from './issuer-key';
export type { Groth16Proof, Groth16VerificationKey } from './snarkjs';
export {
  readComplianceStatement,
  verifyComplianceProof,
  type ComplianceProofSubmission,
  type ComplianceProofVerification,
  type ComplianceStatement,
  type ComplianceVerifierConfig,
} from './verify-compliance-proof';
export { loadComplianceVerificationKey, resolveZkArtifact, ZK_ARTIFACTS } from './zk-artifacts';
