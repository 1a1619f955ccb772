/**
 * THE classifier of chain failures, shared by the reads (ChainRpcService) and the attester's
 * transactions: did the node answer (a revert, or a refusal such as "nonce too low"), or was it
 * unreachable or too slow? Only the last two are outages (503 CHAIN_UNAVAILABLE); only an
 * unreachable node is worth a retry (resending to a slow node adds load when it hurts most).
 */
import { revertDataOf } from './encoding/revert-decoder';

export type ChainFailure =
  | { kind: 'revert'; revertData: string }
  | { kind: 'timeout' }
  | { kind: 'unreachable' }
  | { kind: 'refused' };

/** No answer within a call's time budget (json-rpc-http.ts, under ChainRpcService.withBudget). */
export class ChainTimeoutError extends Error {
  constructor(ms: number) {
    super(`chain RPC did not answer within ${ms} ms`);
    this.name = 'ChainTimeoutError';
  }
}

const TIMEOUT_NAMES = new Set(['ChainTimeoutError', 'TimeoutError', 'AbortError']);
const UNREACHABLE_CODES = new Set([
  'NETWORK_ERROR',
  'SERVER_ERROR',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
]);
const UNREACHABLE_TEXT =
  /ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|socket hang up|fetch failed|network error/i;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

function isTimeout(e: ErrorLike): boolean {
  if (TIMEOUT_NAMES.has(String(e.name ?? '')) || e.code === 'TIMEOUT' || e.code === 'ETIMEDOUT')
    return true;
  return e.code !== 'CALL_EXCEPTION' && typeof e.message === 'string' && /timeout/i.test(e.message);
}

function isUnreachable(e: ErrorLike): boolean {
  if (UNREACHABLE_CODES.has(String(e.code ?? ''))) return true;
  return (
    e.code !== 'CALL_EXCEPTION' && typeof e.message === 'string' && UNREACHABLE_TEXT.test(e.message)
  );
}

export function classifyChainFailure(error: unknown, depth = 0): ChainFailure {
  const e = (error ?? {}) as ErrorLike;
  if (typeof e !== 'object') return { kind: 'refused' };
  if (isTimeout(e)) return { kind: 'timeout' };
  if (isUnreachable(e)) return { kind: 'unreachable' };
  if (depth < 4 && e.cause !== undefined && e.cause !== error) {
    const inner = classifyChainFailure(e.cause, depth + 1);
    if (inner.kind === 'timeout' || inner.kind === 'unreachable') return inner;
  }
  const revertData = revertDataOf(error);
  if (revertData !== undefined) return { kind: 'revert', revertData };
  return { kind: 'refused' };
}

/** The RPC could not be reached or did not answer in time (as opposed to answering). */
export function isTransportFailure(error: unknown): boolean {
  const { kind } = classifyChainFailure(error);
  return kind === 'timeout' || kind === 'unreachable';
}
