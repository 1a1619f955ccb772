import {
  apiKeyHashMatches,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  parseApiKey,
} from './api-key-format';

describe('api-key-format', () => {
  it('generates <prefix>_<mode>_<48 hex> keys from the CSPRNG, all different', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('cgk', 'test')));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^cgk_test_[0-9a-f]{48}$/);
    expect(generateApiKey('acme', 'live')).toMatch(/^acme_live_[0-9a-f]{48}$/);
  });

  it('parses the mode and the 12-hex lookup prefix, and refuses anything else', () => {
    const key = `cgk_live_${'ab'.repeat(24)}`;
    expect(parseApiKey(key, 'cgk')).toEqual({ mode: 'live', lookupPrefix: 'abababababab' });
    for (const bad of [
      '',
      key.slice(0, -1),
      `${key}0`,
      key.replace('cgk', 'xyz'),
      key.replace('live', 'prod'),
      key.toUpperCase(),
      ` ${key}`,
      `cgk_live_${'g'.repeat(48)}`,
    ]) {
      expect(parseApiKey(bad, 'cgk')).toBeUndefined();
    }
  });

  it('stores SHA-256 hex and compares in constant time', () => {
    const key = generateApiKey('cgk', 'test');
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyHashMatches(key, hash)).toBe(true);
    expect(apiKeyHashMatches(`${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`, hash)).toBe(
      false,
    );
    expect(apiKeyHashMatches(key, 'abcd')).toBe(false);
  });

  it('displays no more than the clear lookup prefix', () => {
    expect(displayPrefix('cgk', 'test', '0123456789ab')).toBe('cgk_test_0123456789ab');
  });
});
