/**
 * The read transport: one JSON-RPC call per HTTP POST on an undici connection pool (keep-alive),
 * the request body built with JSON.stringify and the answer parsed with JSON.parse.
 *
 * Chosen by measurement (bench/rpc-transport.ts, the wallet-read eth_call every build sends;
 * figures in bench/README.md, "RPC transport"): undici's request API costs the least CPU per call,
 * then node:http with a keep-alive agent, then ethers' JsonRpcProvider over that agent (most of
 * its CPU goes to its own UTF-8 and byte helpers and request objects), then Node's fetch. The
 * attester's transactions keep ethers for signing and nonces, over this same transport
 * (failover-provider.ts).
 *
 * Errors keep the shapes the classifier (chain-errors.ts) reads: a JSON-RPC error is a
 * JsonRpcError carrying the node's `code`, `message` and revert `data`; a non-2xx answer is
 * SERVER_ERROR (the node or a proxy in front of it failed: worth a retry); socket errors keep
 * their codes (ECONNREFUSED, UND_ERR_SOCKET, ...); no answer within `timeoutMs` is a
 * ChainTimeoutError.
 */
import { Pool } from 'undici';
import { ChainTimeoutError } from './chain-errors';

/**
 * The node answered with a JSON-RPC error object. A revert (revert data, or the node's "execution
 * reverted" text) gets ethers' code CALL_EXCEPTION, so the classifier never mistakes it for an
 * outage whatever its reason string says; other errors keep the node's numeric code.
 */
export class JsonRpcError extends Error {
  readonly code: string | number;
  constructor(
    readonly rpcCode: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
    const reverted =
      (typeof data === 'string' && /^0x[0-9a-fA-F]*$/.test(data)) ||
      /revert/i.test(message) ||
      (typeof data === 'object' && data !== null && /revert/i.test(JSON.stringify(data)));
    this.code = reverted ? 'CALL_EXCEPTION' : rpcCode;
  }
}

/**
 * The node's HTTP answer was not a JSON-RPC answer (5xx, an HTML error page), or the provider
 * rate-limited the call (HTTP 429, whatever its body): the provider spoke, not the chain.
 */
export class JsonRpcHttpError extends Error {
  readonly code = 'SERVER_ERROR';
  constructor(
    readonly status: number,
    body: string,
    /** From a Retry-After header (seconds or an HTTP date), when the provider sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(`RPC answered HTTP ${status}: ${body.slice(0, 120)}`);
    this.name = 'JsonRpcHttpError';
  }
}

/** Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP date; undefined when absent or bad. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now = Date.now(),
): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface JsonRpcTransport {
  /** One call; `timeoutMs` (default: the transport's) bounds the wait for the answer. */
  send<T>(method: string, params: unknown[], timeoutMs?: number): Promise<T>;
  destroy(): void;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export function createJsonRpcTransport(rpcUrl: string, defaultTimeoutMs: number): JsonRpcTransport {
  const url = new URL(rpcUrl);
  const path = `${url.pathname}${url.search}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (url.username || url.password)
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  const pool = new Pool(url.origin, { connections: 64 });
  let nextId = 1;

  const call = async <T>(method: string, params: unknown[], timeoutMs: number): Promise<T> => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
    let status: number;
    let text: string;
    let retryAfter: string | string[] | undefined;
    try {
      const res = await pool.request({
        path,
        method: 'POST',
        headers,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      status = res.statusCode;
      retryAfter = res.headers['retry-after'];
      text = await res.body.text();
    } catch (err) {
      if (TIMEOUT_CODES.has(String((err as { code?: unknown }).code)))
        throw new ChainTimeoutError(timeoutMs);
      throw err;
    }
    // A rate limit is the provider's answer even when it is dressed as a JSON-RPC error.
    if (status === 429) throw new JsonRpcHttpError(status, text, parseRetryAfter(retryAfter));
    let answer: {
      result?: unknown;
      error?: { code?: number; message?: string; data?: unknown };
    };
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      throw new JsonRpcHttpError(status, text, parseRetryAfter(retryAfter));
    }
    if (answer.error) {
      const e = answer.error;
      throw new JsonRpcError(Number(e.code ?? 0), String(e.message ?? 'RPC error'), e.data);
    }
    if (status < 200 || status >= 300 || !('result' in answer))
      throw new JsonRpcHttpError(status, text, parseRetryAfter(retryAfter));
    return answer.result as T;
  };

  return {
    /**
     * undici's own timeouts tick every half second; the budget is exact with one native timer,
     * and undici's timeouts (the same value) free the connection soon after.
     */
    send<T>(method: string, params: unknown[], timeoutMs = defaultTimeoutMs): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ChainTimeoutError(timeoutMs)), timeoutMs);
        call<T>(method, params, timeoutMs).then(
          (value) => {
            clearTimeout(timer);
            resolve(value);
          },
          (err: unknown) => {
            clearTimeout(timer);
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      });
    },
    destroy(): void {
      void pool.destroy();
    },
  };
}
