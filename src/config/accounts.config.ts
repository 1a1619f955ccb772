import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { appModeOf } from './app.config';
import { envBool, envInt, envOptional, envUrl } from './env-reader';

/** Members and invitations (issue 33). */
export const accountsConfig = registerAs('accounts', () => {
  const env = process.env;
  const mode = appModeOf(env);
  return {
    /**
     * `POST /api/v1/account/invitations` works. Default: on in demo mode, and in production when
     * SMTP_URL is set (invitations are sent by mail there; the start refuses them without SMTP).
     */
    invitationsEnabled: invitationsEnabledIn(env, mode, envOptional(env, 'SMTP_URL') !== undefined),
    /** How long an invitation token can be accepted (default 7 days). */
    invitationTtlHours: envInt(env, 'INVITATION_TTL_HOURS', 168, { min: 1, max: 720 }),
    /**
     * Where people reach this service (https://api.example.com), to give invitation links as full
     * URLs; unset: links are paths (/dashboard/#accept-invitation=...) on the service's origin.
     */
    publicBaseUrl: envUrl(env, 'PUBLIC_BASE_URL', ['http', 'https'])?.replace(/\/+$/, ''),
  };
});

/** INVITATIONS_ENABLED (read here and by the mail config's check). */
export function invitationsEnabledIn(
  env: Record<string, string | undefined>,
  mode: string,
  smtpConfigured: boolean,
): boolean {
  return envBool(env, 'INVITATIONS_ENABLED', mode === 'demo' || smtpConfigured);
}

export type AccountsConfig = ConfigType<typeof accountsConfig>;
/** The DI token of this namespace (see configToken). */
export const AccountsConfig = configToken(accountsConfig);
