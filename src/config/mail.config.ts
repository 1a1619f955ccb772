import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { invitationsEnabledIn } from './accounts.config';
import { appModeOf } from './app.config';
import { signupEnabledIn } from './security.config';
import { envInt, envString, envUrl, invalidConfig } from './env-reader';

/**
 * Mail that proves control of an address (issue 46): sign-up confirmations and invitations are
 * sent as links over SMTP. Without SMTP_URL (demo mode only) the message is logged and the link is
 * given in the answer instead; in production sign-up and invitations need SMTP, and the start
 * refuses them without it.
 */
export const mailConfig = registerAs('mail', () => {
  const env = process.env;
  const mode = appModeOf(env);
  const smtpUrl = envUrl(env, 'SMTP_URL', ['smtp', 'smtps']);
  if (mode === 'production' && smtpUrl === undefined) {
    const needing = [
      ...(signupEnabledIn(env, mode) ? ['SIGNUP_ENABLED'] : []),
      ...(invitationsEnabledIn(env, mode, false) ? ['INVITATIONS_ENABLED'] : []),
    ];
    if (needing.length > 0) {
      invalidConfig(
        'SMTP_URL',
        `is required in production when ${needing.join(' or ')} is on: sign-ups and invitations are confirmed by a link sent to the address (smtp://user:pass@host:587 or smtps://...:465)`,
        undefined,
        undefined,
      );
    }
  }
  if (
    mode === 'production' &&
    (signupEnabledIn(env, mode) || invitationsEnabledIn(env, mode, smtpUrl !== undefined)) &&
    envUrl(env, 'PUBLIC_BASE_URL', ['http', 'https']) === undefined
  ) {
    invalidConfig(
      'PUBLIC_BASE_URL',
      'is required in production when SIGNUP_ENABLED or INVITATIONS_ENABLED is on: the links mailed for sign-ups and invitations must be full URLs (https://api.example.com)',
      undefined,
      undefined,
    );
  }
  return {
    /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465. */
    smtpUrl,
    /** The From of every message: an address the SMTP server may send as. */
    smtpFrom: envString(env, 'SMTP_FROM', 'Compliance DeFi Builder <no-reply@localhost>'),
    /** Connection, greeting and socket timeouts of one send, in milliseconds. */
    smtpTimeoutMs: envInt(env, 'SMTP_TIMEOUT_MS', 10_000, { min: 1_000, max: 120_000 }),
  };
});

export type MailConfig = ConfigType<typeof mailConfig>;
/** The DI token of this namespace (see configToken). */
export const MailConfig = configToken(mailConfig);
