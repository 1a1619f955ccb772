import { ERROR_CATALOGUE, ErrorCode } from '../errors/error-catalogue';
import { codesNamedFor, errorExample, hasSampleMessage } from './error-examples';

describe('error examples of the OpenAPI document', () => {
  it('has a message of its own for every code of the catalogue', () => {
    const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
    expect(codes.filter((code) => !hasSampleMessage(code))).toEqual([]);
  });

  it('renders a whole envelope in the catalogue phase, or the one given', () => {
    expect(errorExample('QUOTA_EXCEEDED').value).toEqual({
      error: 'Payment Required',
      code: 'QUOTA_EXCEEDED',
      message: expect.any(String),
      hint: ERROR_CATALOGUE.QUOTA_EXCEEDED.hint,
      phase: 'auth',
      details: [expect.objectContaining({ limit: expect.any(Number) })],
    });
    expect(errorExample('RATE_LIMIT_EXCEEDED').value.retryAfter).toBeGreaterThan(0);
    expect(errorExample('SESSION_NOT_ACTIVE', 'broadcast').value.phase).toBe('broadcast');
  });

  it('reads the codes of one status, and their phase, from a response description', () => {
    const description =
      '`INSTITUTION_OWNERSHIP_MISMATCH` (preflight): hint\n\n`SESSION_NOT_ACTIVE` (broadcast): hint\n\n' +
      'API_KEY_SCOPE_MISSING: the key lacks the scope; not INVALID_PARAMS, nor SIWE_DOMAIN.';
    expect(codesNamedFor(403, description)).toEqual([
      { code: 'INSTITUTION_OWNERSHIP_MISMATCH', phase: 'preflight' },
      { code: 'API_KEY_SCOPE_MISSING', phase: 'auth' },
    ]);
    expect(codesNamedFor(412, description)).toEqual([
      { code: 'SESSION_NOT_ACTIVE', phase: 'broadcast' },
    ]);
  });
});
