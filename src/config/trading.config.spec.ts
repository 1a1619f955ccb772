import { withOnlyEnv } from '../../test/helpers/test-env';
import { tradingConfig } from './trading.config';

describe('tradingConfig (issue 54)', () => {
  const configWith = (vars: Record<string, string>) => withOnlyEnv(vars, () => tradingConfig());
  const KEY = `0x${'12'.repeat(32)}`;

  it('defaults: a key signer without a key (the attester signs outside production), 600 s', () => {
    expect(configWith({})).toEqual({
      production: false,
      authorizerSigner: 'key',
      authorizerPrivateKey: undefined,
      authorizerPkcs11: undefined,
      authorizationTtlSeconds: 1200,
    });
    expect(configWith({ AUTHORIZER_PRIVATE_KEY: KEY }).authorizerPrivateKey).toBe(KEY);
  });

  it('refuses a malformed key without echoing it, a key beside a PKCS#11 signer, and a TTL out of range', () => {
    let message = '';
    try {
      configWith({ AUTHORIZER_PRIVATE_KEY: '0xsecret-material' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/AUTHORIZER_PRIVATE_KEY must be 0x followed by 64 hex characters/);
    expect(message).not.toContain('secret-material');
    expect(() =>
      configWith({
        AUTHORIZER_SIGNER: 'pkcs11',
        AUTHORIZER_PRIVATE_KEY: KEY,
        PKCS11_MODULE: '/m.so',
        PKCS11_TOKEN_LABEL: 't',
        PKCS11_PIN: '1',
        AUTHORIZER_PKCS11_KEY_LABEL: 'a',
      }),
    ).toThrow(/AUTHORIZER_PRIVATE_KEY must be unset with AUTHORIZER_SIGNER=pkcs11/);
    expect(() => configWith({ AUTHORIZER_SIGNER: 'pkcs11' })).toThrow(/PKCS11_MODULE/);
    expect(() => configWith({ AUTHORIZATION_TTL_SECONDS: '5' })).toThrow(
      /AUTHORIZATION_TTL_SECONDS/,
    );
  });
});
