import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { appModeOf } from './app.config';
import { envInt, envSecret, envSecretList, envString, invalidConfig } from './env-reader';

export const API_KEY_PREFIX_PATTERN = /^[a-z][a-z0-9]{1,15}$/;
export const MIN_SECRET_LENGTH = 32;

export const authConfig = registerAs('auth', () => {
  const env = process.env;
  const mode = appModeOf(env);
  const given = envString(env, 'API_KEY_PREFIX', 'cgk');
  const apiKeyPrefix = API_KEY_PREFIX_PATTERN.test(given)
    ? given
    : invalidConfig(
        'API_KEY_PREFIX',
        'must be 2-16 lower-case letters or digits, starting with a letter',
        given,
        'cgk',
      );
  return {
    jwtSecret: jwtSecret(env, mode),
    /**
     * Earlier signing secrets (comma-separated), still accepted when verifying tokens: set the old
     * JWT_SECRET here when rotating it, and remove it once the refresh-token lifetime has passed.
     */
    jwtPreviousSecrets: envSecretList(env, 'JWT_PREVIOUS_SECRETS', MIN_SECRET_LENGTH),
    jwtIssuer: 'compliance-defi-builder',
    jwtAudience: 'compliance-defi-builder-api',
    accessTokenTtlSeconds: 15 * 60,
    refreshTokenTtlSeconds: 7 * 24 * 60 * 60,
    /**
     * A refresh token presented again this many seconds after its rotation, while its successor is
     * unused, gets that same successor back (a client retrying through another replica) instead
     * of revoking the login; later, or once the successor is used, it is reuse. 0: never.
     */
    refreshReuseGraceSeconds: envInt(env, 'AUTH_REFRESH_REUSE_GRACE_SECONDS', 10, {
      min: 0,
      max: 60,
    }),
    clockSkewSeconds: 60,
    apiKeyPrefix,
    /** A deployment issues keys of its own mode: `test` on the test network, `live` in production. */
    apiKeyMode: mode === 'production' ? ('live' as const) : ('test' as const),
    /**
     * How long a key row read for authentication is reused by this instance (0: read every time).
     * A revocation through this instance applies at once; through another instance (or the
     * database), within this time. Expiry is checked on every request.
     */
    apiKeyCacheMs: envInt(env, 'API_KEY_CACHE_MS', 5_000, { min: 0, max: 60_000 }),
    /**
     * The latest expiresAt a new key may be given, in days from its creation (a key without
     * expiresAt never expires). Bounds the year-9999 expiry that is "never" in all but name.
     */
    apiKeyMaxLifetimeDays: envInt(env, 'API_KEY_MAX_LIFETIME_DAYS', 730, { min: 1, max: 36_500 }),
    /** Login attempts allowed per email + client IP per minute. */
    loginAttemptsPerMinute: 10,
    /** Failed logins per client IP and minute (any emails), then 429 for that IP. */
    failedLoginsPerIpPerMinute: envInt(env, 'AUTH_FAILED_LOGINS_PER_IP_PER_MINUTE', 30, { min: 1 }),
    /** Refused API keys (format, prefix, hash, inactive, expired) per client IP and minute. */
    failedApiKeysPerIpPerMinute: envInt(env, 'AUTH_FAILED_API_KEYS_PER_IP_PER_MINUTE', 100, {
      min: 1,
    }),
    /** argon2id verifications/hashes at once (each ~19 MiB and a libuv thread); more wait in line. */
    argon2Concurrency: envInt(env, 'ARGON2_CONCURRENCY', 2, { min: 1, max: 64 }),
  };
});

/**
 * JWT_SECRET, checked. Production must be given one; elsewhere an unset secret is undefined here and
 * generated once in DATA_DIR by the auth module (JwtSecret): configuration only reads the environment.
 */
function jwtSecret(env: Record<string, string | undefined>, mode: string): string | undefined {
  const given = envSecret(env, 'JWT_SECRET', MIN_SECRET_LENGTH);
  if (given === undefined && mode === 'production')
    return invalidConfig(
      'JWT_SECRET',
      `is required in production mode: ${MIN_SECRET_LENGTH}+ random characters, e.g. openssl rand -base64 48`,
      undefined,
      undefined,
    );
  return given;
}

export type AuthConfig = ConfigType<typeof authConfig>;
/** The DI token of this namespace (see configToken). */
export const AuthConfig = configToken(authConfig);
