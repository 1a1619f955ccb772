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

/** Classifies a failure before the transaction was sent: unreachable RPC -> 503, revert/refusal -> 502. */
export function beforeSendFailure(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isTransportFailure(error)) return chainUnavailable(error);
  return broadcastFailed(
    'The compliance registry refused the activation (simulation reverted)',
    error,
  );
}
