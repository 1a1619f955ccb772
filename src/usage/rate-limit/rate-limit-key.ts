/** The one throttler of RateLimitModule: its name, and the storage key of an account's window. */
export const RATE_LIMIT_THROTTLER = 'account';
export const RATE_LIMIT_WINDOW_MS = 60_000;

export function rateLimitKey(accountId: string): string {
  return `rl:${accountId}`;
}

/**
 * The Redis key of an account's window, as @nest-lab/throttler-storage-redis names it
 * (`{<key>:<throttler>}:hits`, the key prefixed by RateLimitStorage), so the window counted with
 * the quota (MonthlyQuotaCounter.consume) and the one the storage counts alone are the same key.
 */
export function redisRateLimitKey(keyPrefix: string, accountId: string): string {
  return `{${keyPrefix}${rateLimitKey(accountId)}:${RATE_LIMIT_THROTTLER}}:hits`;
}
