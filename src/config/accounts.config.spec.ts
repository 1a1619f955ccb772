import { withOnlyEnv } from '../../test/helpers/test-env';
import { accountsConfig } from './accounts.config';

describe('accountsConfig', () => {
  const configWith = (vars: Record<string, string>) => withOnlyEnv(vars, () => accountsConfig());

  it('keeps invitations 7 days and gives links as paths by default', () => {
    expect(configWith({})).toEqual({
      invitationsEnabled: true,
      invitationTtlHours: 168,
      publicBaseUrl: undefined,
    });
    expect(configWith({ INVITATION_TTL_HOURS: '24' }).invitationTtlHours).toBe(24);
  });

  it('turns invitations on in demo mode, and in production only with SMTP_URL (issue 46)', () => {
    expect(configWith({ APP_MODE: 'production' }).invitationsEnabled).toBe(false);
    expect(
      configWith({ APP_MODE: 'production', SMTP_URL: 'smtp://mail.example.com:587' })
        .invitationsEnabled,
    ).toBe(true);
    expect(configWith({ INVITATIONS_ENABLED: 'false' }).invitationsEnabled).toBe(false);
  });

  it('takes the public base URL without a trailing slash', () => {
    expect(configWith({ PUBLIC_BASE_URL: 'https://api.example.com/' }).publicBaseUrl).toBe(
      'https://api.example.com',
    );
  });

  it('refuses a TTL out of range and a base URL that is not http(s), naming the variable', () => {
    expect(() => configWith({ INVITATION_TTL_HOURS: '0' })).toThrow(/INVITATION_TTL_HOURS/);
    expect(() => configWith({ INVITATION_TTL_HOURS: '721' })).toThrow(/INVITATION_TTL_HOURS/);
    expect(() => configWith({ PUBLIC_BASE_URL: 'ftp://example.com' })).toThrow(/PUBLIC_BASE_URL/);
    expect(() => configWith({ PUBLIC_BASE_URL: 'not a url' })).toThrow(/PUBLIC_BASE_URL/);
  });
});
