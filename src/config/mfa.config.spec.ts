import { withOnlyEnv } from '../../test/helpers/test-env';
import { mfaConfig } from './mfa.config';

describe('mfaConfig', () => {
  const configWith = (vars: Record<string, string>) => withOnlyEnv(vars, () => mfaConfig());

  it('locks a user out after 5 wrong codes for 15 minutes by default', () => {
    expect(configWith({})).toEqual({ maxFailures: 5, lockoutSeconds: 900 });
    expect(configWith({ MFA_MAX_FAILURES: '3', MFA_LOCKOUT_SECONDS: '60' })).toEqual({
      maxFailures: 3,
      lockoutSeconds: 60,
    });
  });

  it('refuses values out of range, naming the variable', () => {
    expect(() => configWith({ MFA_MAX_FAILURES: '0' })).toThrow(/MFA_MAX_FAILURES/);
    expect(() => configWith({ MFA_LOCKOUT_SECONDS: '0' })).toThrow(/MFA_LOCKOUT_SECONDS/);
    expect(() => configWith({ MFA_LOCKOUT_SECONDS: '86401' })).toThrow(/MFA_LOCKOUT_SECONDS/);
  });
});
