/**
 * One reading of a revert for the broadcast phase, shared by the relay's simulation (a refusal
 * before the transaction costs gas) and the status lookup's REVERTED (`revert: {code, message,
 * hint}`). The chain layer's decoder (src/chain/encoding/revert-decoder.ts) unwraps the
 * PoolManager's WrappedError and the UniversalRouter's ExecutionFailed to the innermost reason;
 * this maps that reason onto what the integrator should do. Pure.
 */
import type { DecodedRevert } from '../../chain/encoding/revert-decoder';
import { ApiError } from '../../common/errors/api-error';
import { ERROR_CATALOGUE } from '../../common/errors/error-catalogue';

export interface RevertExplanation {
  /** SESSION_NOT_ACTIVE, SLIPPAGE_EXCEEDED, DEADLINE_PASSED, ALLOWANCE_INSUFFICIENT, ... or REVERTED. */
  code: string;
  message: string;
  hint: string;
}

const HINTS: Record<string, string> = {
  SESSION_NOT_ACTIVE: ERROR_CATALOGUE.SESSION_NOT_ACTIVE.hint,
  WALLET_SANCTIONED: ERROR_CATALOGUE.WALLET_SANCTIONED.hint,
  SLIPPAGE_EXCEEDED:
    "The pool price moved past the transaction's limit (minimum out / maximum in): build the swap again for a fresh quote, or raise slippageBps, then sign the new transaction.",
  DEADLINE_PASSED:
    "The transaction's deadline has passed: build it again (a new deadline) and sign the new transaction.",
  ALLOWANCE_INSUFFICIENT:
    'The Permit2 allowance to the router is expired or short: send the approvals[] of a fresh build (or sign its permitData), then this transaction again.',
  INSUFFICIENT_POOL_LIQUIDITY:
    'The pool cannot fill this amount at any price within the limits: lower the amount.',
  PERMIT_EXPIRED:
    'The signed Permit2 permit is past its sigDeadline: build again (fresh permitData), sign the new permit and the new transaction.',
  PERMIT_NONCE_USED:
    'The signed Permit2 permit uses a nonce already spent (an earlier permit or approve consumed it): build again for the current nonce, sign the new permitData and transaction.',
  PERMIT_SIGNATURE_INVALID:
    "The Permit2 permit's signature is not the token owner's: sign the build's permitData with the wallet that sends the transaction (EIP-712, unchanged values).",
  OUT_OF_GAS:
    'The transaction runs out of gas at its gas limit: sign it again with the gas the build response gives (transaction.gas).',
  ROUTER_NOT_ALLOWED:
    'The compliance hook accepts trades from the UniversalRouter and the PositionManager only: build the transaction with this service.',
  SAFE_SIGNATURES_INVALID:
    "Have enough current owners (the Safe's threshold) sign the build's safeTransaction.typedData, concatenate their 65-byte signatures in ascending owner address order, and send execTransaction again; if another Safe transaction ran first (the Safe's nonce moved), build again and sign the new one.",
  SAFE_EXECUTION_FAILED:
    "A call of the Safe's batch reverts: build again (fresh quote, approvals and nonce) and have the owners sign the new safeTransaction.",
};

/** What a Safe's GSxxx revert means, in words (safe-smart-account docs/error_codes.md). */
const SAFE_ERRORS: Record<string, string> = {
  GS010: 'not enough gas to execute the Safe transaction',
  GS013: 'a call of its batch reverts',
  GS020: "its signatures are too short: fewer owners signed than the Safe's threshold",
  GS021: 'a contract signature points inside the static part',
  GS022: 'a contract signature has no length',
  GS023: 'a contract signature is incomplete',
  GS024: 'a contract owner refused its signature',
  GS025: 'an approved-hash signature names an owner that did not approve this hash',
  GS026:
    'a signature is not from a current owner, not in ascending owner order, or signs another Safe transaction (another nonce)',
};

const DEFAULT_HINT =
  'The transaction reverts (details.revertReason): fix the cause, build again and sign the new transaction.';

export function explainRevert(revert: DecodedRevert): RevertExplanation {
  const what =
    revert.code === 'SESSION_NOT_ACTIVE'
      ? `the compliance hook refused it: wallet ${String(revert.args.trader)} has no active compliance session`
      : revert.code === 'WALLET_SANCTIONED'
        ? `the compliance hook refused it: wallet ${String(revert.args.wallet)} is on the sanctions list`
        : revert.name === 'Error' && SAFE_ERRORS[String(revert.args.message)]
          ? `the Safe refused it (${String(revert.args.message)}: ${SAFE_ERRORS[String(revert.args.message)]})`
          : `it reverts with ${revert.summary}`;
  return { code: revert.code, message: what, hint: HINTS[revert.code] ?? DEFAULT_HINT };
}

/**
 * The relay's refusal of a transaction whose simulation reverted, phase broadcast: the hook's
 * session refusal as SESSION_NOT_ACTIVE (412, its usual hint), its sanctions refusal as
 * WALLET_SANCTIONED (403, details.walletAddress names the wallet), anything else as
 * SIMULATION_REVERTED (400) with details.revertCode and details.revertReason.
 */
export function simulationRefusal(
  revert: DecodedRevert,
  block: 'latest' | 'pending' = 'latest',
): ApiError {
  const explained = explainRevert(revert);
  const extra = { revertCode: explained.code, revertReason: revert.summary };
  if (explained.code === 'SESSION_NOT_ACTIVE')
    return new ApiError(
      'SESSION_NOT_ACTIVE',
      `Not sent: simulated at the ${block} block, ${explained.message}`,
      { phase: 'broadcast', extra },
    );
  if (explained.code === 'WALLET_SANCTIONED')
    return new ApiError(
      'WALLET_SANCTIONED',
      `Not sent: simulated at the ${block} block, ${explained.message}`,
      {
        phase: 'broadcast',
        extra: Object.assign({ walletAddress: String(revert.args.wallet) }, extra),
      },
    );
  return new ApiError(
    'SIMULATION_REVERTED',
    `Not sent: simulated at the ${block} block, ${explained.message}`,
    { phase: 'broadcast', hint: explained.hint, extra },
  );
}
