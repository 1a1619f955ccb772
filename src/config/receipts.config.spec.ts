import { withOnlyEnv } from '../../test/helpers/test-env';
import { generateEs256Key } from './es256-key';
import { receiptsConfig } from './receipts.config';

describe('receiptsConfig', () => {
  const configWith = (vars: Record<string, string>) => withOnlyEnv(vars, () => receiptsConfig());

  it('has no key outside production unless given one (the service keeps one under DATA_DIR)', () => {
    expect(configWith({})).toEqual({ signingKey: undefined, watchIntervalMs: 15_000 });
  });

  it('takes a JWK, and requires one in production', () => {
    const key = generateEs256Key();
    const text = JSON.stringify(key.privateJwk);
    expect(configWith({ RECEIPT_SIGNING_KEY: text }).signingKey).toEqual(key);
    expect(() => configWith({ APP_MODE: 'production' })).toThrow(
      /RECEIPT_SIGNING_KEY is required in production mode/,
    );
  });

  it('refuses a key that is not a P-256 private key, without echoing it', () => {
    let message = '';
    try {
      configWith({ RECEIPT_SIGNING_KEY: '{"kty":"EC","crv":"P-256","d":"secret-material"}' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/RECEIPT_SIGNING_KEY must be an ES256 \(P-256\) private key/);
    expect(message).not.toContain('secret-material');
    expect(() => configWith({ RECEIPT_WATCH_INTERVAL_MS: '-1' })).toThrow(
      /RECEIPT_WATCH_INTERVAL_MS/,
    );
  });
});
