import { ApiError } from '../../common/errors/api-error';

const TRANSPORT_CODES = new Set([
  'NETWORK_ERROR',
  'TIMEOUT',
  'SERVER_ERROR',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);
const TRANSPORT_TEXT =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|socket hang up|fetch failed|timeout/i;

/** The RPC could not be reached or did not answer (as opposed to answering "this reverts"). */
export function isTransportFailure(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; error?: unknown } | null;
  if (!e) return false;
  if (TRANSPORT_CODES.has(String(e.code ?? ''))) return true;
  if (
    typeof e.message === 'string' &&
    e.code !== 'CALL_EXCEPTION' &&
    TRANSPORT_TEXT.test(e.message)
  )
    return true;
  return e.cause !== undefined && e.cause !== error && isTransportFailure(e.cause);
}

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
