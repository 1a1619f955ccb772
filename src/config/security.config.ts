import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { appModeOf } from './app.config';
import { MIN_SECRET_LENGTH } from './auth.config';
import { envBool, envInt, envProductionSecret, envSecretList, envString } from './env-reader';

/** Self-service sign-up, two-factor sign-in and the audit trail (issue 33). */
export const securityConfig = registerAs('security', () => {
  const env = process.env;
  const mode = appModeOf(env);
  return {
    /**
     * `POST /auth/signup` opens accounts, once the link mailed to the address is followed; off by
     * default in production (operators use the CLI), where it needs SMTP_URL.
     */
    signupEnabled: signupEnabledIn(env, mode),
    /** The issuer shown by authenticator apps next to the user's email. */
    totpIssuer: envString(env, 'TOTP_ISSUER', 'Compliance DeFi Builder').slice(0, 64),
    /**
     * The key TOTP secrets are encrypted with (AES-256-GCM, via HKDF) and recovery codes keyed
     * with; required in production. Unset elsewhere: derived from the JWT secret.
     */
    mfaEncryptionKey: envProductionSecret(
      env,
      'MFA_ENCRYPTION_KEY',
      MIN_SECRET_LENGTH,
      mode === 'production',
    ),
    /**
     * Keys TOTP secrets and recovery codes may still be under after a rotation of
     * MFA_ENCRYPTION_KEY (comma-separated): read, and re-encrypted under the current key at start.
     */
    mfaPreviousKeys: envSecretList(env, 'MFA_ENCRYPTION_PREVIOUS_KEYS', MIN_SECRET_LENGTH),
    /** Audit events are kept this many days, then pruned by the retention sweep. */
    auditRetentionDays: envInt(env, 'AUDIT_RETENTION_DAYS', 400, { min: 1, max: 3_650 }),
  };
});

/** SIGNUP_ENABLED: on by default in demo mode only (read here and by the mail config's check). */
export function signupEnabledIn(env: Record<string, string | undefined>, mode: string): boolean {
  return envBool(env, 'SIGNUP_ENABLED', mode === 'demo');
}

export type SecurityConfig = ConfigType<typeof securityConfig>;
/** The DI token of this namespace (see configToken). */
export const SecurityConfig = configToken(securityConfig);
