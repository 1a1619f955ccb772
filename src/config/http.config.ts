import { ConfigType, registerAs } from '@nestjs/config';
import { envBool, envOptional, InvalidConfigError } from './env-reader';

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
    .map((origin) => {
      let url: URL | undefined;
      try {
        url = new URL(origin);
      } catch {
        url = undefined;
      }
      if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== origin) {
        throw new InvalidConfigError(
          'CORS_ORIGINS',
          'must list exact origins such as https://dashboard.example.com (scheme://host[:port], comma-separated, no path, no wildcard)',
          origin,
        );
      }
      return origin;
    });
}

/** Browser-facing HTTP settings: cross-origin access and the API reference. */
export const httpConfig = registerAs('http', () => {
  const env = process.env;
  return {
    corsOrigins: parseCorsOrigins(envOptional(env, 'CORS_ORIGINS')),
    /** Serve /docs and /docs/json (switch off in production if the reference must not be public). */
    docsEnabled: envBool(env, 'DOCS_ENABLED', true),
  };
});

export type HttpConfig = ConfigType<typeof httpConfig>;
