import { parseCorsOrigins, parseTrustProxy, readRequestTimeouts } from './http.config';

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

describe('readRequestTimeouts', () => {
  it('defaults to 10 s for the headers and 30 s for the whole request', () => {
    expect(readRequestTimeouts({})).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 });
  });

  it('reads both; unset, the headers timeout never exceeds a shorter request timeout', () => {
    expect(
      readRequestTimeouts({ HTTP_HEADERS_TIMEOUT_MS: '1500', HTTP_REQUEST_TIMEOUT_MS: '2000' }),
    ).toEqual({ headersTimeoutMs: 1_500, requestTimeoutMs: 2_000 });
    expect(readRequestTimeouts({ HTTP_REQUEST_TIMEOUT_MS: '5000' })).toEqual({
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 5_000,
    });
  });

  it('refuses a headers timeout above the request timeout (Node would throw ERR_OUT_OF_RANGE)', () => {
    expect(() =>
      readRequestTimeouts({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' }),
    ).toThrow(/HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS \(10000\)/);
  });

  it.each([
    ['HTTP_REQUEST_TIMEOUT_MS', '0'],
    ['HTTP_REQUEST_TIMEOUT_MS', '30'],
    ['HTTP_REQUEST_TIMEOUT_MS', '30s'],
    ['HTTP_HEADERS_TIMEOUT_MS', '-1'],
    ['HTTP_HEADERS_TIMEOUT_MS', '1.5'],
  ])('refuses %s=%s: whole milliseconds from 1000 to 3600000', (name, value) => {
    expect(() => readRequestTimeouts({ [name]: value })).toThrow(
      new RegExp(`${name} must be an integer between 1000 and 3600000`),
    );
  });
});
