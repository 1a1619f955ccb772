import { ConfigType, registerAs } from '@nestjs/config';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { appModeOf } from './app.config';
import { envOptional, envString, InvalidConfigError } from './env-reader';

export const API_KEY_PREFIX_PATTERN = /^[a-z][a-z0-9]{1,15}$/;
const MIN_SECRET_LENGTH = 32;

export const authConfig = registerAs('auth', () => {
  const env = process.env;
  const mode = appModeOf(env);
  const apiKeyPrefix = envString(env, 'API_KEY_PREFIX', 'cgk');
  if (!API_KEY_PREFIX_PATTERN.test(apiKeyPrefix)) {
    throw new InvalidConfigError(
      'API_KEY_PREFIX',
      'must be 2-16 lower-case letters or digits, starting with a letter',
      apiKeyPrefix,
    );
  }
  return {
    jwtSecret: jwtSecret(env, mode, resolve(envString(env, 'DATA_DIR', './data'))),
    jwtIssuer: 'compliance-defi-builder',
    jwtAudience: 'compliance-defi-builder-api',
    accessTokenTtlSeconds: 15 * 60,
    refreshTokenTtlSeconds: 7 * 24 * 60 * 60,
    clockSkewSeconds: 60,
    apiKeyPrefix,
    /** A deployment issues keys of its own mode: `test` on the test network, `live` in production. */
    apiKeyMode: mode === 'production' ? ('live' as const) : ('test' as const),
    /** Login attempts allowed per email + client IP per minute. */
    loginAttemptsPerMinute: 10,
  };
});

/**
 * Production must be given JWT_SECRET. Elsewhere an unset secret is generated once and kept in
 * DATA_DIR/jwt-secret (mode 0600), so tokens survive restarts and instances sharing DATA_DIR agree.
 */
function jwtSecret(env: Record<string, string | undefined>, mode: string, dataDir: string): string {
  const given = envOptional(env, 'JWT_SECRET');
  if (given !== undefined) {
    if (given.length < MIN_SECRET_LENGTH) {
      throw new InvalidConfigError(
        'JWT_SECRET',
        `must have at least ${MIN_SECRET_LENGTH} characters`,
        given,
      );
    }
    return given;
  }
  if (mode === 'production')
    throw new InvalidConfigError('JWT_SECRET', 'is required in production mode', undefined);
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= MIN_SECRET_LENGTH) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export type AuthConfig = ConfigType<typeof authConfig>;
