import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { envBool, envInt, envOptional, invalidConfig } from './env-reader';

/** The headers a browser dashboard may send, and the ones its scripts may read (rate limit, ids). */
export const CORS_ALLOWED_HEADERS = [
  'content-type',
  'x-api-key',
  'authorization',
  'idempotency-key',
];
export const CORS_EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Quota-Reset',
  'X-Receipt-Id',
  'X-Request-Id',
];
export const CORS_METHODS = ['GET', 'POST', 'DELETE'];

/**
 * Comma-separated exact origins (`scheme://host[:port]`, no path, no wildcard). A browser origin is
 * compared as a string, so a trailing slash or a path would never match: refuse them at boot.
 */
export function parseCorsOrigins(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin.length > 0)
    .flatMap((origin) => {
      let url: URL | undefined;
      try {
        url = new URL(origin);
      } catch {
        url = undefined;
      }
      if (url && ['http:', 'https:'].includes(url.protocol) && url.origin === origin)
        return [origin];
      return invalidConfig(
        'CORS_ORIGINS',
        'must list exact origins such as https://dashboard.example.com (scheme://host[:port], comma-separated, no path, no wildcard)',
        origin,
        [],
      );
    });
}

/**
 * Express `trust proxy`: unset/false = the socket's address is the client (no proxy); true = the
 * leftmost X-Forwarded-For entry; a number = that many proxies in front; otherwise a
 * comma-separated list of proxy addresses/subnets (e.g. `loopback, 10.0.0.0/8`). Only trust
 * what is really in front of the service: a client can write any X-Forwarded-For it likes.
 */
export function parseTrustProxy(text: string | undefined): boolean | number | string[] {
  if (text === undefined || /^(0|false|no)$/i.test(text)) return false;
  if (/^(true|yes)$/i.test(text)) return true;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const list = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (
    list.length === 0 ||
    list.some((entry) => !/^[0-9a-fA-F:./]+$|^(loopback|linklocal|uniquelocal)$/.test(entry))
  )
    return invalidConfig(
      'TRUST_PROXY',
      'must be true, false, a hop count, or comma-separated proxy addresses/subnets (loopback, 10.0.0.0/8)',
      text,
      false,
    );
  return list;
}

export interface RequestTimeouts {
  /** How long a client may take to send a request's headers (Node's `server.headersTimeout`). */
  headersTimeoutMs: number;
  /** How long a client may take to send a whole request, body included (`server.requestTimeout`). */
  requestTimeoutMs: number;
}

/**
 * Node 20 keeps a socket that sends a request slowly for 300 s (`requestTimeout`'s default). It
 * refuses a `headersTimeout` above `requestTimeout` when both are given to `createServer`
 * (ERR_OUT_OF_RANGE) but not when they are set on the server afterwards, as here: checked now.
 * Unset, the headers timeout is 10 s, or the request timeout if that is shorter. Answering is not
 * bounded by these: they stop once the request has been received.
 */
export function readRequestTimeouts(env: Record<string, string | undefined>): RequestTimeouts {
  const bounds = { min: 1_000, max: 3_600_000 };
  const requestTimeoutMs = envInt(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, bounds);
  const given = envInt(env, 'HTTP_HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), bounds);
  const headersTimeoutMs =
    given <= requestTimeoutMs
      ? given
      : invalidConfig(
          'HTTP_HEADERS_TIMEOUT_MS',
          `must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
          String(given),
          requestTimeoutMs,
        );
  return { headersTimeoutMs, requestTimeoutMs };
}

/** HTTP settings: how long a request may take to arrive, cross-origin access, the API reference. */
export const httpConfig = registerAs('http', () => {
  const env = process.env;
  return {
    corsOrigins: parseCorsOrigins(envOptional(env, 'CORS_ORIGINS')),
    /** Serve /docs and /docs/json (switch off in production if the reference must not be public). */
    docsEnabled: envBool(env, 'DOCS_ENABLED', true),
    trustProxy: parseTrustProxy(envOptional(env, 'TRUST_PROXY')),
    requestTimeouts: readRequestTimeouts(env),
  };
});

export type HttpConfig = ConfigType<typeof httpConfig>;
/** The DI token of this namespace (see configToken). */
export const HttpConfig = configToken(httpConfig);
