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
  /**
   * Several calls in ONE HTTP request (a JSON-RPC batch): each call's result or its JSON-RPC error,
   * in the order given. Throws what `send` throws when the request as a whole fails, and
   * JsonRpcBatchRefused when the node answers a batch with anything but one answer per call.
   */
  sendBatch(calls: readonly RpcCall[], timeoutMs?: number): Promise<RpcAnswer[]>;
  destroy(): void;
}

export interface RpcCall {
  method: string;
  params: unknown[];
}

/** One answer of a batch: the call's result, or the node's JSON-RPC error for it. */
export type RpcAnswer = { ok: true; result: unknown } | { ok: false; error: JsonRpcError };

/**
 * The node does not take JSON-RPC batches (some providers refuse them, or cap their size): the
 * caller sends the calls one by one instead (ChainRpcService.batch).
 */
export class JsonRpcBatchRefused extends Error {
  constructor(reason: string) {
    super(`the RPC refused a JSON-RPC batch: ${reason.slice(0, 120)}`);
    this.name = 'JsonRpcBatchRefused';
  }
}

interface RpcAnswerBody {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string; data?: unknown };
}

function errorOf(e: NonNullable<RpcAnswerBody['error']>): JsonRpcError {
  return new JsonRpcError(Number(e.code ?? 0), String(e.message ?? 'RPC error'), e.data);
}

/** A batch's answers in call order (nodes may answer out of order: matched by id). */
function batchAnswers(parsed: unknown, firstId: number, count: number): RpcAnswer[] {
  if (!Array.isArray(parsed)) {
    const error = (parsed as RpcAnswerBody | null)?.error;
    throw new JsonRpcBatchRefused(error ? String(error.message) : 'not an array');
  }
  const answers: RpcAnswer[] = new Array<RpcAnswer>(count);
  for (const item of parsed as RpcAnswerBody[]) {
    const index = Number(item?.id) - firstId;
    if (!Number.isInteger(index) || index < 0 || index >= count) continue;
    answers[index] = item.error
      ? { ok: false, error: errorOf(item.error) }
      : { ok: true, result: item.result };
  }
  for (let i = 0; i < count; i += 1)
    if (answers[i] === undefined) throw new JsonRpcBatchRefused(`no answer for call ${i}`);
  return answers;
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

  /** POSTs `body`: the HTTP status and text, or the transport's timeout and socket errors. */
  const post = async (body: string, timeoutMs: number) => {
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
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new JsonRpcHttpError(status, text, parseRetryAfter(retryAfter));
    }
    return { status, text, retryAfter, parsed };
  };

  const call = async <T>(method: string, params: unknown[], timeoutMs: number): Promise<T> => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
    const { status, text, retryAfter, parsed } = await post(body, timeoutMs);
    const answer = (parsed ?? {}) as RpcAnswerBody;
    if (answer.error) throw errorOf(answer.error);
    if (status < 200 || status >= 300 || !('result' in answer))
      throw new JsonRpcHttpError(status, text, parseRetryAfter(retryAfter));
    return answer.result as T;
  };

  const batch = async (calls: readonly RpcCall[], timeoutMs: number): Promise<RpcAnswer[]> => {
    const firstId = nextId;
    nextId += calls.length;
    const body = JSON.stringify(
      calls.map((c, i) => ({
        jsonrpc: '2.0',
        id: firstId + i,
        method: c.method,
        params: c.params,
      })),
    );
    const { status, text, retryAfter, parsed } = await post(body, timeoutMs);
    if (status >= 500) throw new JsonRpcHttpError(status, text, parseRetryAfter(retryAfter));
    // A node that refuses batches says so with one error object (HTTP 200 or 4xx): JsonRpcBatchRefused.
    return batchAnswers(parsed, firstId, calls.length);
  };

  /**
   * undici's own timeouts tick every half second; the budget is exact with one native timer,
   * and undici's timeouts (the same value) free the connection soon after.
   */
  const withTimer = <T>(timeoutMs: number, run: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ChainTimeoutError(timeoutMs)), timeoutMs);
      run().then(
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

  return {
    send<T>(method: string, params: unknown[], timeoutMs = defaultTimeoutMs): Promise<T> {
      return withTimer(timeoutMs, () => call<T>(method, params, timeoutMs));
    },
    sendBatch(calls: readonly RpcCall[], timeoutMs = defaultTimeoutMs): Promise<RpcAnswer[]> {
      return withTimer(timeoutMs, () => batch(calls, timeoutMs));
    },
    destroy(): void {
      void pool.destroy();
    },
  };
}
