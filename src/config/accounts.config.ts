import { ConfigType, registerAs } from '@nestjs/config';
import { envInt, envUrl } from './env-reader';

/** Members and invitations (issue 33). */
export const accountsConfig = registerAs('accounts', () => {
  const env = process.env;
  return {
    /** How long an invitation token can be accepted (default 7 days). */
    invitationTtlHours: envInt(env, 'INVITATION_TTL_HOURS', 168, { min: 1, max: 720 }),
    /**
     * Where people reach this service (https://api.example.com), to give invitation links as full
     * URLs; unset: links are paths (/dashboard/#accept-invitation=...) on the service's origin.
     */
    publicBaseUrl: envUrl(env, 'PUBLIC_BASE_URL', ['http', 'https'])?.replace(/\/+$/, ''),
  };
});

export type AccountsConfig = ConfigType<typeof accountsConfig>;
