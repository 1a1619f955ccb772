import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { appModeOf } from './app.config';
import {
  envInt,
  envOptional,
  envProductionSecret,
  envSecretList,
  invalidConfig,
} from './env-reader';

/** Default retry delays after each failed attempt: 8 attempts over about 24 hours. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `5s,5m,30m,2h` -> delays in ms; undefined when a part is not `<integer><ms|s|m|h|d>`. */
export function parseRetrySchedule(text: string): number[] | undefined {
  const parts = text.split(',').map((part) => part.trim());
  const delays: number[] = [];
  for (const part of parts) {
    const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(part);
    if (!match) return undefined;
    delays.push(Number(match[1]) * UNIT_MS[match[2]]);
  }
  return delays.length > 0 && delays.length <= 20 ? delays : undefined;
}

/** Signed webhooks (issue 32): delivery, retries, SSRF exceptions and the event scanners. */
export const webhooksConfig = registerAs('webhooks', () => {
  const env = process.env;
  const scheduleText = envOptional(env, 'WEBHOOK_RETRY_SCHEDULE') ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE;
  const retryScheduleMs =
    parseRetrySchedule(scheduleText) ??
    invalidConfig(
      'WEBHOOK_RETRY_SCHEDULE',
      'must be 1-20 comma-separated delays like 5s,5m,30m,2h (units ms, s, m, h, d)',
      scheduleText,
      parseRetrySchedule(DEFAULT_WEBHOOK_RETRY_SCHEDULE)!,
    );
  const timeoutMs = envInt(env, 'WEBHOOK_TIMEOUT_MS', 5_000, { min: 100, max: 30_000 });
  const dnsTimeoutMs = envInt(env, 'WEBHOOK_DNS_TIMEOUT_MS', 2_000, { min: 50, max: 30_000 });
  const leaseGiven = envInt(env, 'WEBHOOK_LEASE_MS', 60_000, { min: 1_000, max: 3_600_000 });
  // An attempt (DNS, then the POST) must end within the claim's lease, or another replica claims
  // the delivery while it is still being sent and the receiver gets it twice.
  const leaseMs =
    leaseGiven > timeoutMs + dnsTimeoutMs
      ? leaseGiven
      : invalidConfig(
          'WEBHOOK_LEASE_MS',
          `must be greater than WEBHOOK_TIMEOUT_MS + WEBHOOK_DNS_TIMEOUT_MS (${timeoutMs + dnsTimeoutMs} ms)`,
          String(leaseGiven),
          60_000,
        );
  return {
    /** Delay before each retry; attempts = delays + 1, then the delivery is failed. */
    retryScheduleMs,
    /** How often each instance looks for due deliveries (a local event also nudges it at once). */
    pollIntervalMs: envInt(env, 'WEBHOOK_POLL_INTERVAL_MS', 500, { min: 50, max: 60_000 }),
    /** Per-attempt HTTP timeout. */
    timeoutMs,
    /** Per-attempt bound on resolving the endpoint's name (before the HTTP timeout starts). */
    dnsTimeoutMs,
    /**
     * A claimed delivery not recorded by then (a crashed instance) is claimed again; greater than
     * WEBHOOK_TIMEOUT_MS + WEBHOOK_DNS_TIMEOUT_MS.
     */
    leaseMs,
    /** Deliveries in flight per instance at most (each settles on its own). */
    batchSize: envInt(env, 'WEBHOOK_BATCH_SIZE', 20, { min: 1, max: 200 }),
    /** An endpoint failing without a success for this long is disabled (default 5 days). */
    disableAfterMs:
      envInt(env, 'WEBHOOK_DISABLE_AFTER_SECONDS', 5 * 86_400, { min: 1, max: 365 * 86_400 }) *
      1_000,
    /**
     * Hostnames exempt from the address rules (and production's https rule) in both modes, except
     * the cloud metadata address (exact, case-insensitive).
     */
    allowedHosts: (envOptional(env, 'WEBHOOK_ALLOWED_HOSTS') ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host.length > 0),
    /** session.expiring is sent this long before a session's activeUntil. */
    sessionExpiringLeadSeconds: envInt(env, 'WEBHOOK_SESSION_EXPIRING_LEAD_SECONDS', 3_600, {
      min: 1,
      max: 30 * 86_400,
    }),
    /** How often session.expiring and relayed transactions are looked at. */
    scanIntervalMs: envInt(env, 'WEBHOOK_SCAN_INTERVAL_MS', 15_000, { min: 100, max: 3_600_000 }),
    /** The previous secret keeps signing alongside the new one this long after a rotation. */
    previousSecretTtlMs: 24 * 3_600_000,
    /**
     * The key webhook signing secrets are encrypted with at rest (32+ characters); required in
     * production; unset elsewhere: derived from the JWT secret.
     */
    secretsKey: envProductionSecret(
      env,
      'WEBHOOK_SECRETS_KEY',
      32,
      appModeOf(env) === 'production',
    ),
    /**
     * Keys stored signing secrets may still be under after a rotation of WEBHOOK_SECRETS_KEY
     * (comma-separated): read, and re-encrypted under the current key at start.
     */
    secretsPreviousKeys: envSecretList(env, 'WEBHOOK_SECRETS_PREVIOUS_KEYS', 32),
    /** Settled deliveries (with their attempts and events) and settled relayed transactions are kept this long. */
    retentionDays: envInt(env, 'WEBHOOK_RETENTION_DAYS', 30, { min: 1, max: 3_650 }),
    /** Endpoints per account. */
    maxEndpointsPerAccount: envInt(env, 'WEBHOOK_MAX_ENDPOINTS', 20, { min: 1, max: 1_000 }),
  };
});

export type WebhooksConfig = ConfigType<typeof webhooksConfig>;
/** The DI token of this namespace (see configToken). */
export const WebhooksConfig = configToken(webhooksConfig);
