import { collectConfigErrors } from './env-reader';
import { securityConfig } from './security.config';

describe('securityConfig', () => {
  const NAMES = [
    'APP_MODE',
    'SIGNUP_ENABLED',
    'TOTP_ISSUER',
    'MFA_ENCRYPTION_KEY',
    'MFA_ENCRYPTION_PREVIOUS_KEYS',
    'JWT_SECRET',
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
      mfaPreviousKeys: [],
      auditRetentionDays: 400,
    });
  });

  it('closes sign-up in production unless SIGNUP_ENABLED says otherwise', () => {
    const key = { MFA_ENCRYPTION_KEY: 'm'.repeat(32) };
    expect(withEnv({ APP_MODE: 'production', ...key }, () => securityConfig().signupEnabled)).toBe(
      false,
    );
    expect(
      withEnv(
        { APP_MODE: 'production', SIGNUP_ENABLED: 'true', ...key },
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

  it('requires MFA_ENCRYPTION_KEY in production, distinct from JWT_SECRET', () => {
    const missing = withEnv({ APP_MODE: 'production' }, () => collectConfigErrors(securityConfig));
    expect(missing.map((p) => p.message)).toEqual([
      expect.stringMatching(/MFA_ENCRYPTION_KEY is required in production mode/),
    ]);
    const same = withEnv(
      { APP_MODE: 'production', MFA_ENCRYPTION_KEY: 's'.repeat(40), JWT_SECRET: 's'.repeat(40) },
      () => collectConfigErrors(securityConfig),
    );
    expect(same.map((p) => p.message)).toEqual([
      expect.stringMatching(/MFA_ENCRYPTION_KEY must differ from JWT_SECRET \(got "<redacted>"\)/),
    ]);
  });

  it('reads MFA_ENCRYPTION_PREVIOUS_KEYS as a list, refusing a short entry without echoing it', () => {
    expect(
      withEnv({ MFA_ENCRYPTION_PREVIOUS_KEYS: ` ${'a'.repeat(32)} ,${'b'.repeat(32)}` }, () =>
        securityConfig(),
      ).mfaPreviousKeys,
    ).toEqual(['a'.repeat(32), 'b'.repeat(32)]);
    const problems = withEnv({ MFA_ENCRYPTION_PREVIOUS_KEYS: `${'a'.repeat(32)},tooshort` }, () =>
      collectConfigErrors(securityConfig),
    );
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/MFA_ENCRYPTION_PREVIOUS_KEYS entry 2 must have at least 32/),
    ]);
    expect(JSON.stringify(problems)).not.toContain('tooshort');
  });
});
