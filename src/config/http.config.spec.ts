import { parseCorsOrigins, parseTrustProxy } from './http.config';

describe('parseCorsOrigins', () => {
  it('reads comma-separated exact origins; unset or blank means none', () => {
    expect(parseCorsOrigins(undefined)).toEqual([]);
    expect(parseCorsOrigins(' , ')).toEqual([]);
    expect(parseCorsOrigins('https://a.example.com, http://localhost:5173')).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
  });

  it.each([
    ['a wildcard', '*'],
    ['a trailing slash', 'https://a.example.com/'],
    ['a path', 'https://a.example.com/app'],
    ['no scheme', 'a.example.com'],
    ['another scheme', 'ftp://a.example.com'],
  ])('refuses %s, naming the variable', (_label, value) => {
    expect(() => parseCorsOrigins(value)).toThrow(/CORS_ORIGINS must list exact origins/);
  });
});

describe('parseTrustProxy', () => {
  it('reads Express trust proxy values: off by default, a boolean, a hop count or a list', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('loopback, 10.0.0.0/8')).toEqual(['loopback', '10.0.0.0/8']);
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => parseTrustProxy('everyone')).toThrow(/TRUST_PROXY must be/);
  });
});
