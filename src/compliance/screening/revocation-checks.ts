/**
 * What the screening watcher asks about each wallet with an active session: one check per
 * source of trust, each naming the `reason` its revocations carry (session.revoked, design §9).
 * Pluggable: a module adds a source by providing a RevocationCheck under REVOCATION_CHECKS
 * (e.g. attestation sources: "attestation_revoked"); the watcher runs every registered check.
 */
import type { SessionRevocationReason } from '../sessions/attester.service';
import type { ScreenedWallet } from './sanctions-screen.service';

export interface RevocationCheck {
  readonly reason: SessionRevocationReason;
  /** Of these wallets (each with an active session), the ones whose session must end now. */
  revoked(sessions: readonly ScreenedWallet[]): Promise<Set<string>>;
}

/** Nest multi-provider token: every RevocationCheck registered by a module. */
export const REVOCATION_CHECKS = Symbol('REVOCATION_CHECKS');

/** The oracle lists the wallet (read with the session in the watcher's batch). */
export const sanctionsCheck: RevocationCheck = {
  reason: 'sanctioned',
  revoked: (sessions) =>
    Promise.resolve(new Set(sessions.filter((s) => s.sanctioned).map((s) => s.walletAddress))),
};
