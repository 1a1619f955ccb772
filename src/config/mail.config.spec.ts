import { withOnlyEnv } from '../../test/helpers/test-env';
import { mailConfig } from './mail.config';

describe('mailConfig', () => {
  const configWith = (vars: Record<string, string>) => withOnlyEnv(vars, () => mailConfig());
  const production = {
    APP_MODE: 'production',
    PUBLIC_BASE_URL: 'https://api.example.com',
  };

  it('has no SMTP by default in demo mode: messages are logged, links shown', () => {
    expect(configWith({})).toEqual({
      smtpUrl: undefined,
      smtpFrom: 'Compliance DeFi Builder <no-reply@localhost>',
      smtpTimeoutMs: 10_000,
    });
  });

  it('takes smtp:// and smtps:// URLs and refuses others, without echoing credentials', () => {
    expect(configWith({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).smtpUrl).toBe(
      'smtps://u:p@mail.example.com:465',
    );
    expect(() => configWith({ SMTP_URL: 'http://u:secretpass@mail.example.com' })).toThrow(
      /SMTP_URL must use one of the protocols smtp, smtps/,
    );
    expect(() => configWith({ SMTP_URL: 'http://u:secretpass@mail.example.com' })).not.toThrow(
      /secretpass/,
    );
  });

  it('starts production without SMTP while sign-up and invitations are off (their default)', () => {
    expect(configWith(production).smtpUrl).toBeUndefined();
  });

  it('refuses production without SMTP_URL when sign-up or invitations are on', () => {
    expect(() => configWith({ ...production, SIGNUP_ENABLED: 'true' })).toThrow(
      /SMTP_URL is required in production when SIGNUP_ENABLED is on/,
    );
    expect(() => configWith({ ...production, INVITATIONS_ENABLED: 'true' })).toThrow(
      /SMTP_URL is required in production when INVITATIONS_ENABLED is on/,
    );
  });

  it('needs PUBLIC_BASE_URL in production when links are mailed', () => {
    expect(() =>
      configWith({ APP_MODE: 'production', SMTP_URL: 'smtp://mail.example.com:587' }),
    ).toThrow(/PUBLIC_BASE_URL is required in production/);
    expect(
      configWith({ ...production, SMTP_URL: 'smtp://mail.example.com:587', SIGNUP_ENABLED: 'true' })
        .smtpUrl,
    ).toBe('smtp://mail.example.com:587');
  });
});
