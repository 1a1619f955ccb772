import { collectConfigErrors } from './env-reader';
import { securityConfig } from './security.config';

describe('securityConfig', () => {
  const NAMES = [
    'APP_MODE',
    'SIGNUP_ENABLED',
    'TOTP_ISSUER',
    'MFA_ENCRYPTION_KEY',
    'AUDIT_RETENTION_DAYS',
  ];

  function withEnv<T>(vars: Record<string, string>, read: () => T): T {
    const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
    for (const name of NAMES) delete process.env[name];
    Object.assign(process.env, vars);
    try {
      return read();
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }

  it('opens sign-up in demo mode, keeps audit events 400 days, derives the MFA key', () => {
    expect(withEnv({}, () => securityConfig())).toEqual({
      signupEnabled: true,
      totpIssuer: 'Compliance DeFi Builder',
      mfaEncryptionKey: undefined,
      auditRetentionDays: 400,
    });
  });

  it('closes sign-up in production unless SIGNUP_ENABLED says otherwise', () => {
    expect(withEnv({ APP_MODE: 'production' }, () => securityConfig().signupEnabled)).toBe(false);
    expect(
      withEnv(
        { APP_MODE: 'production', SIGNUP_ENABLED: 'true' },
        () => securityConfig().signupEnabled,
      ),
    ).toBe(true);
  });

  it('refuses a short MFA_ENCRYPTION_KEY and an out-of-range retention, naming them', () => {
    const problems = withEnv({ MFA_ENCRYPTION_KEY: 'short', AUDIT_RETENTION_DAYS: '0' }, () =>
      collectConfigErrors(securityConfig),
    );
    expect(problems.map((p) => p.variable)).toEqual(['MFA_ENCRYPTION_KEY', 'AUDIT_RETENTION_DAYS']);
    expect(JSON.stringify(problems)).not.toContain('short');
  });
});
