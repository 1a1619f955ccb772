/**
 * Typed client of the compliance-gated DeFi transaction builder: openapi-fetch over the types
 * generated from the service's OpenAPI document (schema.d.ts, `npm run client:generate`).
 *
 *   const api = createDefiClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.KEY });
 *   const { data, error } = await api.POST('/api/v1/defi/swap', { body: {...} });
 *   if (error) console.error(error.code, error.hint);
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };
/** The body of every error response: branch on `code`, show `hint`. */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
export type ErrorCode = components['schemas']['ErrorCode'];
export type DefiClient = Client<paths>;
/** A build answered with `callsFormat=eip5792`: EIP-5792 wallet_sendCalls parameters, as is. */
export type WalletSendCalls = components['schemas']['WalletSendCallsDto'];

/** Whether a build body is the callsFormat=eip5792 answer rather than the whole build. */
export function isWalletSendCalls(body: object): body is WalletSendCalls {
  return 'atomicRequired' in body && 'version' in body && !('transaction' in body);
}

/**
 * A build body of the default format, narrowed from the union every build answers (the whole
 * build, or with callsFormat=eip5792 the wallet_sendCalls parameters): throws on the latter.
 */
export function wholeBuild<T extends object>(body: T): Exclude<T, WalletSendCalls> {
  if (isWalletSendCalls(body))
    throw new TypeError('this build was answered with callsFormat=eip5792, not as a whole build');
  return body as Exclude<T, WalletSendCalls>;
}

export interface DefiClientOptions {
  /** Where the service answers, e.g. http://127.0.0.1:3000 (no trailing /api/v1). */
  baseUrl: string;
  /** X-API-Key (backends). Takes precedence over accessToken, as on the server. */
  apiKey?: string;
  /** Authorization: Bearer <accessToken> from POST /auth/login (dashboards). */
  accessToken?: string;
  /** Retries of a 429 RATE_LIMIT_EXCEEDED, each after its retryAfter (default 2; 0: none). */
  maxRetries?: number;
  /** Longest wait honoured for one retry, in ms (default 60 000); a longer retryAfter is returned as is. */
  maxRetryDelayMs?: number;
  /** fetch to use (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

export function createDefiClient(options: DefiClientOptions): DefiClient {
  const headers: Record<string, string> = {};
  if (options.apiKey) headers['X-API-Key'] = options.apiKey;
  else if (options.accessToken) headers.Authorization = `Bearer ${options.accessToken}`;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers,
    fetch: retryingFetch(options),
  });
}

/** Narrows an unknown error body (e.g. from a catch) to the envelope. */
export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  const v = value as Partial<ErrorEnvelope> | null;
  return typeof v?.code === 'string' && typeof v.hint === 'string' && typeof v.phase === 'string';
}

/** Seconds to wait after a 429: the envelope's retryAfter, else the Retry-After header. */
export async function retryAfterSeconds(response: Response): Promise<number | undefined> {
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  if (isErrorEnvelope(body) && typeof body.retryAfter === 'number') return body.retryAfter;
  const header = Number(response.headers.get('Retry-After'));
  return Number.isFinite(header) && header >= 0 ? header : undefined;
}

function retryingFetch(options: DefiClientOptions): (request: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 2;
  const maxDelayMs = options.maxRetryDelayMs ?? 60_000;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      // A Request body can be read once: every attempt sends a fresh copy.
      const response = await send(request.clone());
      if (response.status !== 429 || attempt >= maxRetries) return response;
      const seconds = await retryAfterSeconds(response);
      if (seconds === undefined || seconds * 1000 > maxDelayMs) return response;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  };
}

export {
  proveCredential,
  type CredentialFile,
  type ProveOptions,
  type ProvingArtifacts,
  type VerifyBody,
} from './prove';
