/**
 * The read transport: one JSON-RPC call per HTTP POST on Node's http/https with a keep-alive
 * agent, the request body built with JSON.stringify and the answer parsed with JSON.parse.
 *
 * Chosen by measurement (bench/rpc-transport.ts, the wallet-read eth_call every build sends,
 * against the devnet): see bench/README.md, "RPC transport". ethers' JsonRpcProvider spends most of
 * its CPU per call in its own UTF-8 and byte helpers and request objects; Node's fetch (undici)
 * more still. The attester's transactions keep ethers (signing, nonces): they are rare.
 *
 * Errors keep the shapes the classifier (chain-errors.ts) reads: a JSON-RPC error is a
 * JsonRpcError carrying the node's `code`, `message` and revert `data`; a non-2xx answer is
 * SERVER_ERROR (the node or a proxy in front of it failed: worth a retry); socket errors keep
 * Node's codes (ECONNREFUSED, ECONNRESET, ...); a request past `timeoutMs` is a TimeoutError.
 */
import { Agent as HttpAgent, request as httpRequest, RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

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

/** The node's HTTP answer was not a JSON-RPC answer (5xx, 429, an HTML error page). */
export class JsonRpcHttpError extends Error {
  readonly code = 'SERVER_ERROR';
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`RPC answered HTTP ${status}: ${body.slice(0, 120)}`);
    this.name = 'JsonRpcHttpError';
  }
}

export class JsonRpcTimeoutError extends Error {
  constructor(ms: number) {
    super(`RPC request timeout after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

export interface JsonRpcTransport {
  send<T>(method: string, params: unknown[]): Promise<T>;
  destroy(): void;
}

export function createJsonRpcTransport(rpcUrl: string, timeoutMs: number): JsonRpcTransport {
  const url = new URL(rpcUrl);
  const https = url.protocol === 'https:';
  const agentOptions = { keepAlive: true, maxSockets: 64 };
  const agent = https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const request = https ? httpsRequest : httpRequest;
  const auth =
    url.username || url.password
      ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
      : undefined;
  const base: RequestOptions = {
    agent,
    method: 'POST',
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    auth,
  };
  let nextId = 1;

  return {
    send<T>(method: string, params: unknown[]): Promise<T> {
      const id = nextId++;
      const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
      return new Promise<T>((resolve, reject) => {
        const req = request(
          {
            ...base,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', reject);
            res.on('end', () => {
              const text =
                chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString();
              const status = res.statusCode ?? 0;
              let answer: {
                result?: unknown;
                error?: { code?: number; message?: string; data?: unknown };
              };
              try {
                answer = JSON.parse(text) as typeof answer;
              } catch {
                reject(new JsonRpcHttpError(status, text));
                return;
              }
              if (answer.error) {
                const e = answer.error;
                reject(
                  new JsonRpcError(Number(e.code ?? 0), String(e.message ?? 'RPC error'), e.data),
                );
              } else if (status < 200 || status >= 300 || !('result' in answer)) {
                reject(new JsonRpcHttpError(status, text));
              } else resolve(answer.result as T);
            });
          },
        );
        req.setTimeout(timeoutMs, () => req.destroy(new JsonRpcTimeoutError(timeoutMs)));
        req.on('error', reject);
        req.end(body);
      });
    },
    destroy(): void {
      agent.destroy();
    },
  };
}
