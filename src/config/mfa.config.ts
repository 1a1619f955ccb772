import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { envInt } from './env-reader';

/**
 * The per-user lockout of second-factor codes (login `otp`, enable, disable), counted in the
 * database so every replica and every client address adds up: a known password alone cannot
 * brute-force a 6-digit code from many addresses.
 */
export const mfaConfig = registerAs('mfa', () => {
  const env = process.env;
  return {
    /** Wrong one-time codes per user within the lockout window; the next attempt is refused. */
    maxFailures: envInt(env, 'MFA_MAX_FAILURES', 5, { min: 1, max: 100 }),
    /** The window the failures are counted in, from the first one; locked until it ends. */
    lockoutSeconds: envInt(env, 'MFA_LOCKOUT_SECONDS', 900, { min: 1, max: 86_400 }),
  };
});

export type MfaConfig = ConfigType<typeof mfaConfig>;
/** The DI token of this namespace (see configToken). */
export const MfaConfig = configToken(mfaConfig);
