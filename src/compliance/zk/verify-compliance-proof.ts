import { getAddress } from 'ethers';

import { PUBLIC_SIGNAL } from './compliance-circuit';
import { walletToFieldElement } from './field';
import type { IssuerPublicKey } from './issuer-key';
import { parseGroth16Proof, parsePublicSignals } from './proof-shape';
import { snarkjs, withBn128Curve, type Groth16VerificationKey } from './snarkjs';

export type ComplianceProofSubmission = {
  walletAddress: unknown;
  proof: unknown;
  publicSignals: unknown;
};

export type ComplianceVerifierConfig = {
  /** From `loadComplianceVerificationKey()` (checked at load). */
  verificationKey: Groth16VerificationKey;
  /** From `parseIssuerPublicKey()`; must be the key the circuit's credential was signed with. */
  issuerPublicKey: IssuerPublicKey;
};

export type ComplianceProofVerification =
  | {
      ok: true;
      /** Decimal string below the BN254 scalar field: store it to refuse replays (409). */
      nullifier: string;
      /** EIP-55 checksummed wallet the proof is bound to. */
      wallet: string;
    }
  | { ok: false; reason: 'PROOF_INVALID'; message: string };

const invalid = (message: string): ComplianceProofVerification => ({
  ok: false,
  reason: 'PROOF_INVALID',
  message,
});

/**
 * Verifies a Groth16 proof of circuits/compliance_credential.circom: "I hold a credential signed
 * by the configured issuer for this wallet". Never throws: any bad input is PROOF_INVALID.
 * Checks, cheapest first: shapes, wallet binding, issuer key, then the pairing (snarkjs).
 * Replay protection (nullifier already used) is the caller's, with the returned nullifier.
 */
export async function verifyComplianceProof(
  submission: ComplianceProofSubmission,
  config: ComplianceVerifierConfig,
): Promise<ComplianceProofVerification> {
  try {
    const walletField = walletToFieldElement(submission?.walletAddress);
    if (walletField === null)
      return invalid('walletAddress must be a 0x-prefixed 40-hex-character address');
    const proof = parseGroth16Proof(submission.proof);
    if (!proof.ok) return invalid(proof.message);
    const signals = parsePublicSignals(submission.publicSignals);
    if (!signals.ok) return invalid(signals.message);
    const publicSignals = signals.value;

    if (publicSignals[PUBLIC_SIGNAL.wallet] !== walletField) {
      return invalid('the proof is bound to a different wallet than walletAddress');
    }
    if (
      publicSignals[PUBLIC_SIGNAL.issuerX] !== config.issuerPublicKey.x ||
      publicSignals[PUBLIC_SIGNAL.issuerY] !== config.issuerPublicKey.y
    ) {
      return invalid('the credential was not issued by the configured issuer');
    }
    const valid = await withBn128Curve(() =>
      snarkjs.groth16.verify(config.verificationKey, publicSignals, proof.value),
    );
    if (!valid) return invalid('the proof does not verify against the verification key');

    return {
      ok: true,
      nullifier: publicSignals[PUBLIC_SIGNAL.nullifier],
      wallet: getAddress((submission.walletAddress as string).toLowerCase()),
    };
  } catch {
    // snarkjs throws on some malformed points; it is still the client's bad proof.
    return invalid('the proof could not be verified');
  }
}
