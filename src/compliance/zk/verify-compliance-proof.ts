import { getAddress } from 'ethers';

import { PUBLIC_SIGNAL } from './compliance-circuit';
import { walletToFieldElement } from './field';
import type { IssuerPublicKey } from './issuer-key';
import { parseGroth16Proof, parsePublicSignals } from './proof-shape';
import {
  loadSnarkjs,
  withBn128Curve,
  type Groth16Proof,
  type Groth16VerificationKey,
} from './snarkjs';

export type ComplianceProofSubmission = {
  walletAddress: unknown;
  proof: unknown;
  publicSignals: unknown;
};

/** The pairing check: true when the proof verifies for these public signals. */
export type Groth16Check = (publicSignals: string[], proof: Groth16Proof) => Promise<boolean>;

export type ComplianceVerifierConfig = {
  /** From `loadComplianceVerificationKey()` (checked at load). */
  verificationKey: Groth16VerificationKey;
  /** From `parseIssuerPublicKey()`; must be the key the circuit's credential was signed with. */
  issuerPublicKey: IssuerPublicKey;
};

/** What a proof claims, read from its public signals (true only once the pairing holds). */
export type ComplianceStatement = {
  /** EIP-55 checksummed wallet the proof is bound to. */
  wallet: string;
  /** Decimal string below the BN254 scalar field: one per credential. */
  nullifier: string;
  challenge: string;
  /** Unix seconds. */
  now: number;
  expiresAt: number;
  root: string;
  /** The issuer key the credential was signed with (the service resolves whose it is). */
  issuer: IssuerPublicKey;
};

export type ComplianceProofVerification =
  ({ ok: true } & ComplianceStatement) | { ok: false; reason: 'PROOF_INVALID'; message: string };

const invalid = (message: string): ComplianceProofVerification => ({
  ok: false,
  reason: 'PROOF_INVALID',
  message,
});

/** Times in the circuit are 64-bit; beyond 2^53 they cannot be a real clock reading anyway. */
function unixSeconds(signal: string): number | null {
  const n = Number(signal);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * Reads already shape-checked public signals against the claimed wallet and, when given, the one
 * accepted issuer key (without it the caller resolves `statement.issuer` against its registered
 * issuers): cheap checks, no pairing. The caller checks challenge, clock, expiry and root, then
 * the pairing.
 */
export function readComplianceStatement(
  walletAddress: string,
  publicSignals: string[],
  issuerPublicKey?: IssuerPublicKey,
): ComplianceProofVerification {
  const walletField = walletToFieldElement(walletAddress);
  if (walletField === null)
    return invalid('walletAddress must be a 0x-prefixed 40-hex-character address');
  if (publicSignals[PUBLIC_SIGNAL.wallet] !== walletField) {
    return invalid('the proof is bound to a different wallet than walletAddress');
  }
  const issuer = {
    x: publicSignals[PUBLIC_SIGNAL.issuerX],
    y: publicSignals[PUBLIC_SIGNAL.issuerY],
  };
  if (issuerPublicKey && (issuer.x !== issuerPublicKey.x || issuer.y !== issuerPublicKey.y)) {
    return invalid('the credential was not issued by the configured issuer');
  }
  const now = unixSeconds(publicSignals[PUBLIC_SIGNAL.now]);
  const expiresAt = unixSeconds(publicSignals[PUBLIC_SIGNAL.expiresAt]);
  if (now === null || expiresAt === null) return invalid('now and expiresAt must be unix seconds');
  return {
    ok: true,
    wallet: getAddress(walletAddress.toLowerCase()),
    nullifier: publicSignals[PUBLIC_SIGNAL.nullifier],
    challenge: publicSignals[PUBLIC_SIGNAL.challenge],
    now,
    expiresAt,
    root: publicSignals[PUBLIC_SIGNAL.root],
    issuer,
  };
}

/** The pairing on this thread (snarkjs, single-threaded curve). Never throws: false instead. */
export function inlineGroth16Check(verificationKey: Groth16VerificationKey): Groth16Check {
  return async (publicSignals, proof) => {
    try {
      return await withBn128Curve(() =>
        loadSnarkjs().groth16.verify(verificationKey, publicSignals, proof),
      );
    } catch {
      // snarkjs throws on some malformed points; it is still the client's bad proof.
      return false;
    }
  };
}

/**
 * Verifies untrusted input end to end: strict shapes, wallet binding, issuer key, then the
 * pairing. Never throws: any bad input is PROOF_INVALID. Freshness (challenge, clock), expiry
 * and the accepted roots are the caller's, from the returned statement.
 */
export async function verifyComplianceProof(
  submission: ComplianceProofSubmission,
  config: ComplianceVerifierConfig,
  pairing: Groth16Check = inlineGroth16Check(config.verificationKey),
): Promise<ComplianceProofVerification> {
  if (typeof submission?.walletAddress !== 'string')
    return invalid('walletAddress must be a 0x-prefixed 40-hex-character address');
  const proof = parseGroth16Proof(submission.proof);
  if (!proof.ok) return invalid(proof.message);
  const signals = parsePublicSignals(submission.publicSignals);
  if (!signals.ok) return invalid(signals.message);
  const statement = readComplianceStatement(
    submission.walletAddress,
    signals.value,
    config.issuerPublicKey,
  );
  if (!statement.ok) return statement;
  if (!(await pairing(signals.value, proof.value)))
    return invalid('the proof does not verify against the verification key');
  return statement;
}
