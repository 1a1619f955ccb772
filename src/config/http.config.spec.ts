import { parseCorsOrigins } from './http.config';

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
