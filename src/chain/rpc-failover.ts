/**
 * RPC failover: CHAIN_RPC_URL may list several URLs. Every chain call (the reads, and the ethers
 * provider of the attester through failover-provider.ts) goes to the first URL that is not cooling
 * down, in the configured order, so traffic returns to the primary once its cool-down is over.
 *
 * A URL is passed over for the next one, within the same call, when the provider failed rather
 * than the chain answering: a transport error (refused, reset, no answer in time), a non-JSON-RPC
 * HTTP answer (429, 5xx, an error page), or a JSON-RPC rate-limit error (429, EIP-1474's -32005
 * "limit exceeded"). It then cools down for CHAIN_RPC_BACKOFF_MS, doubled per consecutive failure
 * up to CHAIN_RPC_BACKOFF_MAX_MS, or for the provider's Retry-After (bounded by the same cap).
 * A JSON-RPC answer (a revert, "nonce too low") is the chain's: returned as is, never resent.
 *
 * The caller's time budget holds: a call never outlasts `timeoutMs`; a URL gets an equal share of
 * what is left among the URLs still to try, so one that hangs cannot eat the whole budget (a
 * refusal costs a millisecond, and the next URL gets nearly all of it).
 */
import { Logger } from '@nestjs/common';
import { keccak256 } from 'ethers';
import { isTransportFailure } from './chain-errors';
import {
  createJsonRpcTransport,
  JsonRpcError,
  JsonRpcHttpError,
  JsonRpcTransport,
  RpcAnswer,
  RpcCall,
} from './json-rpc-http';
import { RecentCounts } from './recent-counts';

export interface RpcFailoverOptions {
  /** Default budget of one call (CHAIN_TIMEOUT_MS). */
  timeoutMs: number;
  /** First cool-down of a failing URL (CHAIN_RPC_BACKOFF_MS), doubled per consecutive failure. */
  backoffMs: number;
  /** Longest cool-down, Retry-After included (CHAIN_RPC_BACKOFF_MAX_MS). */
  backoffMaxMs: number;
}

export interface RpcEndpointStatus {
  /** scheme://host[:port]: never a path, query or credentials (providers put keys there). */
  url: string;
  inUse: boolean;
  /** Over the last `windowSeconds`; errors are provider failures, not JSON-RPC answers. */
  requests: number;
  errors: number;
  errorRate: number;
  /** Present while the URL is passed over after a failure. */
  coolingDownForMs?: number;
}

export interface RpcFailoverStatus {
  /** The URL that answered last (scheme://host[:port]). */
  inUse: string;
  urlsConfigured: number;
  windowSeconds: number;
  urls: RpcEndpointStatus[];
}

/** JSON-RPC error codes providers use for rate limits. */
const RATE_LIMIT_RPC_CODES = new Set([429, -32005]);
/** What nodes answer when they already hold a transaction (geth, erigon, nethermind, besu, reth). */
const ALREADY_KNOWN = /already known|known transaction|already imported|alreadyknown/i;

/** Only scheme://host[:port] of an RPC URL: providers put API keys in the path, query or userinfo. */
export function rpcOrigin(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

/** Did the provider fail (worth another URL), as opposed to the chain answering? */
export function isProviderFailure(error: unknown): boolean {
  if (error instanceof JsonRpcHttpError) return true;
  if (error instanceof JsonRpcError) return RATE_LIMIT_RPC_CODES.has(error.rpcCode);
  return isTransportFailure(error);
}

/** A short reason for the log: a code or status, never the provider's text (it may echo the URL). */
function reasonOf(error: unknown): string {
  if (error instanceof JsonRpcHttpError) return `HTTP ${error.status}`;
  if (error instanceof JsonRpcError) return `rate limited (JSON-RPC ${error.rpcCode})`;
  const e = error as { name?: unknown; code?: unknown; message?: unknown };
  if (e?.name === 'ChainTimeoutError') return 'timeout';
  if (typeof e?.code === 'string') return e.code;
  // A socket error re-wrapped on its way keeps its code in its text ("connect ECONNREFUSED ...").
  const code = /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/.exec(String(e?.message ?? ''));
  return code ? code[1] : 'transport error';
}

class Endpoint {
  readonly counts = new RecentCounts();
  coolingUntil = 0;
  /** Consecutive failures, one per probe: calls already in flight when it failed do not add. */
  failures = 0;
  failedAt = 0;

  constructor(
    readonly origin: string,
    readonly transport: JsonRpcTransport,
  ) {}
}

export class RpcFailover implements JsonRpcTransport {
  private static readonly logger = new Logger('ChainRpc');
  private readonly endpoints: Endpoint[];
  private lastAnswered: Endpoint;
  /** Told of every provider failure, with the URL's origin (the metrics' per-URL error counter). */
  onProviderFailure?: (origin: string) => void;

  constructor(
    urls: readonly string[],
    private readonly options: RpcFailoverOptions,
    createTransport: (url: string, timeoutMs: number) => JsonRpcTransport = createJsonRpcTransport,
  ) {
    if (urls.length === 0) throw new Error('RpcFailover needs at least one RPC URL');
    this.endpoints = urls.map(
      (url) => new Endpoint(rpcOrigin(url), createTransport(url, options.timeoutMs)),
    );
    this.lastAnswered = this.endpoints[0];
  }

  send<T>(method: string, params: unknown[], timeoutMs = this.options.timeoutMs): Promise<T> {
    return this.firstAnswer(
      timeoutMs,
      (transport, share) => transport.send<T>(method, params, share),
      async (endpoint, error, first, deadline) => {
        // A resend of a signed transaction the previous URL may have taken: same hash, landed.
        if (first || method !== 'eth_sendRawTransaction') return undefined;
        const hash = await this.alreadyHeld(endpoint, params, error, deadline);
        return hash as T | undefined;
      },
    );
  }

  /**
   * A JSON-RPC batch on the first URL that answers it. A URL whose answer holds a rate-limit error
   * for any call failed as a whole (the batch goes to the next URL); other errors are answers.
   */
  sendBatch(calls: readonly RpcCall[], timeoutMs = this.options.timeoutMs): Promise<RpcAnswer[]> {
    return this.firstAnswer(timeoutMs, async (transport, share) => {
      const answers = await transport.sendBatch(calls, share);
      const limited = answers.find((a) => !a.ok && isProviderFailure(a.error));
      if (limited && !limited.ok) throw limited.error;
      return answers;
    });
  }

  /** Tries each URL in turn until one answers (an error it answers is thrown as is). */
  private async firstAnswer<T>(
    timeoutMs: number,
    attempt: (transport: JsonRpcTransport, shareMs: number) => Promise<T>,
    onAnsweredError?: (
      endpoint: Endpoint,
      error: unknown,
      first: boolean,
      deadline: number,
    ) => Promise<T | undefined>,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    const order = this.order(Date.now());
    let lastError: unknown;
    for (let i = 0; i < order.length; i++) {
      const endpoint = order[i];
      const left = deadline - Date.now();
      if (i > 0 && left <= 0) break;
      const share = Math.max(1, Math.floor(left / (order.length - i)));
      const attemptStarted = Date.now();
      try {
        const result = await attempt(endpoint.transport, share);
        this.answered(endpoint);
        return result;
      } catch (error) {
        if (!isProviderFailure(error)) {
          this.answered(endpoint);
          const instead = await onAnsweredError?.(endpoint, error, i === 0, deadline);
          if (instead !== undefined) return instead;
          throw error;
        }
        this.failed(endpoint, error, attemptStarted);
        lastError = error;
      }
    }
    throw lastError;
  }

  /** What /health/ready shows: the URL in use, and each URL's recent error rate. */
  status(now = Date.now()): RpcFailoverStatus {
    return {
      inUse: this.lastAnswered.origin,
      urlsConfigured: this.endpoints.length,
      windowSeconds: RecentCounts.WINDOW_SECONDS,
      urls: this.endpoints.map((endpoint) => {
        const { requests, errors } = endpoint.counts.totals(now);
        return {
          url: endpoint.origin,
          inUse: endpoint === this.lastAnswered,
          requests,
          errors,
          errorRate: requests === 0 ? 0 : Math.round((errors / requests) * 1000) / 1000,
          ...(endpoint.coolingUntil > now ? { coolingDownForMs: endpoint.coolingUntil - now } : {}),
        };
      }),
    };
  }

  destroy(): void {
    for (const endpoint of this.endpoints) endpoint.transport.destroy();
  }

  /** The URLs not cooling down in the configured order, then the cooling ones, soonest back first. */
  private order(now: number): Endpoint[] {
    const ready = this.endpoints.filter((e) => e.coolingUntil <= now);
    const cooling = this.endpoints
      .filter((e) => e.coolingUntil > now)
      .sort((a, b) => a.coolingUntil - b.coolingUntil);
    return [...ready, ...cooling];
  }

  private answered(endpoint: Endpoint): void {
    endpoint.counts.record(false);
    if (endpoint.failures > 0) {
      RpcFailover.logger.log(
        { event: 'chain.rpc.recovered', url: endpoint.origin, failures: endpoint.failures },
        `chain RPC ${endpoint.origin} answers again`,
      );
    }
    endpoint.failures = 0;
    endpoint.coolingUntil = 0;
    this.lastAnswered = endpoint;
  }

  /** Each configured URL as scheme://host[:port] (what logs, readiness and metrics name). */
  get origins(): string[] {
    return this.endpoints.map((endpoint) => endpoint.origin);
  }

  private failed(endpoint: Endpoint, error: unknown, attemptStarted: number): void {
    const now = Date.now();
    endpoint.counts.record(true, now);
    this.onProviderFailure?.(endpoint.origin);
    // Sent before the failure that set the cool-down: the same outage, seen again.
    if (endpoint.failedAt >= attemptStarted) return;
    endpoint.failures += 1;
    endpoint.failedAt = now;
    const { backoffMs, backoffMaxMs } = this.options;
    const retryAfterMs = error instanceof JsonRpcHttpError ? error.retryAfterMs : undefined;
    const cooldownMs = Math.min(
      backoffMaxMs,
      retryAfterMs ?? backoffMs * 2 ** Math.min(endpoint.failures - 1, 20),
    );
    endpoint.coolingUntil = now + cooldownMs;
    // One line per outage of a URL (its first failure), not one per call.
    if (endpoint.failures === 1 && this.endpoints.length > 1) {
      const next = this.order(now)[0];
      RpcFailover.logger.warn(
        {
          event: 'chain.rpc.failover',
          from: endpoint.origin,
          to: next.origin,
          reason: reasonOf(error),
          cooldownMs,
        },
        `chain RPC ${endpoint.origin} failed (${reasonOf(error)}): using ${next.origin} for ${cooldownMs} ms`,
      );
    }
  }

  /**
   * The URL answered a resent eth_sendRawTransaction with an error: if it already holds that
   * transaction ("already known", or it is mined: "nonce too low"), the send succeeded; answer
   * its hash, as the node would have.
   */
  private async alreadyHeld(
    endpoint: Endpoint,
    params: unknown[],
    error: unknown,
    deadline: number,
  ): Promise<string | undefined> {
    const raw = params[0];
    if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]*$/.test(raw)) return undefined;
    const hash = keccak256(raw);
    if (error instanceof Error && ALREADY_KNOWN.test(error.message)) return hash;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    try {
      const tx = await endpoint.transport.send<unknown>('eth_getTransactionByHash', [hash], left);
      return tx ? hash : undefined;
    } catch {
      return undefined;
    }
  }
}
