/**
 * The compliance session as the preflight phase judges it: on the chain's clock (the block time
 * read in the wallet-read batch), as the hook will. Pure.
 */
import { getAddress } from 'ethers';
import type { WalletState } from '../../chain/encoding/wallet-reads';
import { ApiError } from '../../common/errors/api-error';
import { ERROR_CATALOGUE } from '../../common/errors/error-catalogue';
import type { SessionView, Warning } from '../defi-builder.types';

export function isoOf(unixSeconds: number): string {
  // uint64 expiries can exceed Date's range (e.g. a "forever" 2^40 s session): clamp for display.
  return new Date(Math.min(unixSeconds * 1000, 8_640_000_000_000_000)).toISOString();
}

export function sessionView(state: WalletState): SessionView {
  const { active, activeUntil } = state.session;
  return { active, activeUntil: activeUntil === null ? null : isoOf(activeUntil) };
}

/** Spec §4 rules 1-2: 412 SESSION_NOT_ACTIVE without an active session, unless buildOnly. */
export function sessionNotActive(wallet: string, session: SessionView): ApiError {
  const detail = session.activeUntil
    ? `ended at ${session.activeUntil}`
    : 'was never opened or was revoked';
  return new ApiError(
    'SESSION_NOT_ACTIVE',
    `Wallet ${getAddress(wallet)} has no active compliance session (it ${detail})`,
    { extra: { activeUntil: session.activeUntil } },
  );
}

/** SESSION_EXPIRES_BEFORE_DEADLINE: the hook checks the session when the transaction executes. */
export function sessionDeadlineWarnings(state: WalletState, deadline: number): Warning[] {
  const { active, activeUntil } = state.session;
  if (!active || activeUntil === null || activeUntil >= deadline) return [];
  const until = isoOf(activeUntil);
  const deadlineIso = isoOf(deadline);
  return [
    {
      code: 'SESSION_EXPIRES_BEFORE_DEADLINE',
      message: `The compliance session ends at ${until}, before the transaction deadline ${deadlineIso}; after that the transaction reverts`,
      hint: ERROR_CATALOGUE.SESSION_EXPIRES_BEFORE_DEADLINE.hint,
      activeUntil: until,
      deadline: deadlineIso,
    },
  ];
}
