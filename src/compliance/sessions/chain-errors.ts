import { isTransportFailure } from '../../chain/chain-errors';
import { ApiError } from '../../common/errors/api-error';

/** How the attester's chain failures read to a client (the classification is the chain layer's). */

/** 503 CHAIN_UNAVAILABLE: nothing was sent, the client may retry as is. No RPC text reaches it. */
export function chainUnavailable(cause: unknown): ApiError {
  return new ApiError(
    'CHAIN_UNAVAILABLE',
    'The chain RPC did not answer; no session was activated',
    { cause },
  );
}

/** 502 BROADCAST_FAILED (phase broadcast): the activation transaction reverted, was refused or not mined. */
export function broadcastFailed(message: string, cause?: unknown, txHash?: string): ApiError {
  return new ApiError('BROADCAST_FAILED', message, {
    cause,
    ...(txHash ? { extra: { txHash } } : {}),
  });
}

/** Why the attester's transaction could not go out: in the envelope (`reason`) and the log. */
export type BroadcastFailureReason = 'insufficient_funds' | 'fee_cap' | 'nonce' | 'refused';

/** geth/reth "insufficient funds for gas * price + value"; Hardhat/EDR "doesn't have enough funds". */
export function isInsufficientFunds(error: unknown): boolean {
  return /insufficient funds|(doesn't|does not) have enough funds/i.test(
    `${messageOf(error)} ${nodeReason(error)}`,
  );
}

/**
 * 502 BROADCAST_FAILED (phase broadcast) for a reason the attester's side knows, with what
 * helps: `details[0].reason` lets a client tell "retry later" from "call the operator".
 */
function attesterRefused(
  reason: BroadcastFailureReason,
  message: string,
  opts: { cause?: unknown; hint?: string } = {},
): ApiError {
  return new ApiError('BROADCAST_FAILED', message, { ...opts, extra: { reason } });
}

/** The attester cannot pay for gas; only the operator can help. */
export function attesterUnfunded(cause: unknown): ApiError {
  return attesterRefused(
    'insufficient_funds',
    'The attester account cannot pay for gas (insufficient funds); no session was activated and nothing was sent',
    {
      cause,
      hint: "The service's attester account is out of ETH: retrying will not help until the operator funds it (ATTESTER_LOW_BALANCE_ETH, npm run cli -- attester fund).",
    },
  );
}

/** The nonce stayed taken past the request's deadline (another sender). */
export function nonceUnavailable(cause: unknown): ApiError {
  return attesterRefused(
    'nonce',
    "The attester's next nonce stayed taken by other transactions until the deadline; nothing of this request was mined",
    {
      cause,
      hint: 'Another sender uses the attester key (replicas bursting, or a stuck transaction): retry in a few seconds; if it persists, the operator checks cgk_attester_pending_transactions.',
    },
  );
}

/** A refusal of the node when sending (or simulating): named by its cause when it has one. */
export function sendRefused(error: unknown, message: string): ApiError {
  if (isInsufficientFunds(error)) return attesterUnfunded(error);
  if (isNonceClash(error)) return nonceUnavailable(error);
  return attesterRefused('refused', message, { cause: error });
}

/** Classifies a failure before the transaction was sent: unreachable RPC -> 503, revert/refusal -> 502. */
export function beforeSendFailure(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isTransportFailure(error)) return chainUnavailable(error);
  return sendRefused(error, 'The compliance registry refused the activation (simulation reverted)');
}

/**
 * 502 BROADCAST_FAILED (phase broadcast): gas costs more than the operator allows the attester to
 * pay (ATTESTER_MAX_FEE_GWEI); nothing was sent. The code the activation endpoints document for a
 * transaction that could not be mined; the hint says why and what helps.
 */
export function feeOverCap(priceWei: bigint, capWei: bigint): ApiError {
  return attesterRefused(
    'fee_cap',
    `Gas on the network costs ${gwei(priceWei)} gwei, above the attester's cap of ${gwei(capWei)} gwei; no session was activated and nothing was sent`,
    {
      hint: "Gas is above the operator's cap (ATTESTER_MAX_FEE_GWEI); retry when fees fall, or the operator raises the cap.",
    },
  );
}

function gwei(wei: bigint): string {
  const whole = wei / 1_000_000_000n;
  const fraction = (wei % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** Another sender (an instance with the same key, or our own earlier send) holds the nonce. */
export function isNonceClash(error: unknown): boolean {
  return /nonce (too low|too high|has already been used)|already known|known transaction|replacement (fee too low|transaction underpriced)/i.test(
    messageOf(error),
  );
}

/** The nonce is already used or the same transaction is known: not a matter of fees. */
export function isNonceTaken(error: unknown): boolean {
  return /nonce (too low|has already been used)|already known|known transaction/i.test(
    messageOf(error),
  );
}

/** The node's own words (its JSON-RPC error message), never the request: a URL may carry a key. */
export function nodeReason(error: unknown): string {
  const e = error as { info?: { error?: { message?: string } }; shortMessage?: string };
  return (e?.info?.error?.message ?? e?.shortMessage ?? 'refused').slice(0, 200);
}

function messageOf(error: unknown): string {
  return (error as Error)?.message ?? '';
}
