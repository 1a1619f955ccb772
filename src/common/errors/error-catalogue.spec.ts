import { ERROR_CATALOGUE, ErrorCode } from './error-catalogue';
import { ApiError } from './api-error';
import { renderError } from './error-envelope';

describe('ERROR_CATALOGUE', () => {
  // Spec §7, verbatim: code -> [status, phase]. The catalogue must keep these exactly.
  const spec: Array<[ErrorCode, number, string]> = [
    ['API_KEY_MISSING', 401, 'auth'],
    ['API_KEY_FORMAT_INVALID', 401, 'auth'],
    ['API_KEY_PREFIX_NOT_FOUND', 401, 'auth'],
    ['API_KEY_HASH_MISMATCH', 401, 'auth'],
    ['API_KEY_INACTIVE', 401, 'auth'],
    ['API_KEY_EXPIRED', 401, 'auth'],
    ['API_KEY_SCOPE_MISSING', 403, 'auth'],
    ['JWT_MISSING', 401, 'auth'],
    ['JWT_INVALID', 401, 'auth'],
    ['INSTITUTION_OWNERSHIP_MISMATCH', 403, 'preflight'],
    ['INVALID_PARAMS', 400, 'validation'],
    ['INVALID_ADDRESS', 400, 'validation'],
    ['UNSUPPORTED_TOKEN', 400, 'preflight'],
    ['SESSION_NOT_ACTIVE', 412, 'preflight'],
    ['ALLOWANCE_INSUFFICIENT', 200, 'preflight'],
    ['RATE_LIMIT_EXCEEDED', 429, 'auth'],
    ['BUILD_FAILED', 400, 'build'],
    ['INTERNAL_ERROR', 500, 'build'],
    // Issue 11 (design §7 new codes).
    ['BALANCE_INSUFFICIENT', 400, 'preflight'],
  ];

  // Codes of our own (design §5, §7): code -> [status, phase].
  const ours: Array<[ErrorCode, number, string]> = [
    ['PAYLOAD_TOO_LARGE', 413, 'validation'],
    ['UNSUPPORTED_MEDIA_TYPE', 415, 'validation'],
    ['NOT_FOUND', 404, 'validation'],
    ['IDEMPOTENCY_KEY_REUSED', 422, 'validation'],
    ['API_KEY_LIMIT_REACHED', 409, 'validation'],
    ['QUOTA_EXCEEDED', 402, 'auth'],
    ['PROOF_INVALID', 400, 'validation'],
    ['PROOF_REPLAYED', 409, 'preflight'],
    ['CREDENTIAL_EXPIRED', 400, 'preflight'],
    ['CREDENTIAL_ISSUER_REVOKED', 403, 'preflight'],
  ];

  it.each([...spec, ...ours])('%s is %i in phase %s', (code, status, phase) => {
    expect(ERROR_CATALOGUE[code]).toMatchObject({ status, phase });
  });

  // Design §7 growth codes: code -> [status, phase].
  const growth: Array<[ErrorCode, number, string]> = [
    ['POSITION_NOT_FOUND', 404, 'preflight'],
    ['POSITION_NOT_OWNED', 403, 'preflight'],
    // Design §7: nothing returned by default is a transaction known to revert (issue 30).
    ['SIMULATION_REVERTED', 400, 'build'],
    // Design §8: the broadcast phase (issue 31). The relay answers SIMULATION_REVERTED and
    // SESSION_NOT_ACTIVE with phase broadcast (src/defi-builder/broadcast/revert-explanation.ts, node-refusals.ts).
    ['BROADCAST_TARGET_NOT_ALLOWED', 400, 'validation'],
    ['NONCE_CONFLICT', 409, 'broadcast'],
    ['FEE_TOO_LOW', 400, 'broadcast'],
    ['BROADCAST_FAILED', 502, 'broadcast'],
    // Design §9 "Markets" (issue 42): a pair no route connects.
    ['NO_ROUTE', 400, 'preflight'],
    // Issue 52: a Range past the end of a proving file; activations of one wallet limited.
    ['RANGE_NOT_SATISFIABLE', 416, 'validation'],
    ['ACTIVATION_RATE_LIMITED', 429, 'preflight'],
  ];

  it.each(growth)('%s is %i in phase %s (design §7)', (code, status, phase) => {
    expect(ERROR_CATALOGUE[code]).toMatchObject({ status, phase });
  });

  it('gives every code an actionable hint', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect({ code, long: entry.hint.length > 20 }).toEqual({ code, long: true });
    }
  });

  it('points the three hints of spec §7 rule 1 where the spec says', () => {
    expect(ERROR_CATALOGUE.INSTITUTION_OWNERSHIP_MISMATCH.hint).toContain(
      'POST /onboarding/register',
    );
    expect(ERROR_CATALOGUE.SESSION_NOT_ACTIVE.hint).toContain(
      'POST /onboarding/activate-session-demo',
    );
    expect(ERROR_CATALOGUE.SESSION_NOT_ACTIVE.hint).toContain('POST /verify');
    expect(ERROR_CATALOGUE.JWT_INVALID.hint).toContain('POST /auth/login');
    expect(ERROR_CATALOGUE.JWT_INVALID.hint).toContain('POST /auth/refresh');
  });
});

describe('renderError', () => {
  it('renders extras and headers of an ApiError', () => {
    const rendered = renderError(
      new ApiError('RATE_LIMIT_EXCEEDED', 'Too many', {
        extra: { retryAfter: 7 },
        headers: { 'Retry-After': '7' },
      }),
    );
    expect(rendered.status).toBe(429);
    expect(rendered.headers).toEqual({ 'Retry-After': '7' });
    expect(rendered.body).toEqual({
      error: 'Too Many Requests',
      code: 'RATE_LIMIT_EXCEEDED',
      message: 'Too many',
      hint: ERROR_CATALOGUE.RATE_LIMIT_EXCEEDED.hint,
      phase: 'auth',
      retryAfter: 7,
    });
  });

  it('moves extras other than retryAfter and errorId into a details entry', () => {
    const rendered = renderError(
      new ApiError('BUILD_FAILED', 'Bad ticks', {
        extra: { rule: 'TICK_ORDER', field: 'tickLower' },
      }),
    );
    expect(rendered.body).not.toHaveProperty('rule');
    expect(rendered.body).not.toHaveProperty('field');
    expect(rendered.body.details).toEqual([{ rule: 'TICK_ORDER', field: 'tickLower' }]);
    const withDetails = renderError(
      new ApiError('UNSUPPORTED_TOKEN', 'Deprecated', {
        details: [{ field: 'tokenIn' }],
        extra: { replacedBy: '0xabc', retryAfter: 3 },
      }),
    );
    expect(withDetails.body.details).toEqual([{ field: 'tokenIn' }, { replacedBy: '0xabc' }]);
    expect(withDetails.body.retryAfter).toBe(3);
  });

  it('turns a refused database connection into 503 SERVICE_UNAVAILABLE', () => {
    const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const rendered = renderError(err);
    expect(rendered.status).toBe(503);
    expect(rendered.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(rendered.body.message).not.toContain('5432');
  });

  it('keeps an unexpected error out of the body but returns it for logging', () => {
    const err = new Error('boom');
    const rendered = renderError(err);
    expect(rendered.status).toBe(500);
    expect(rendered.unexpected?.cause).toBe(err);
    expect(rendered.body.errorId).toBe(rendered.unexpected?.errorId);
    expect(JSON.stringify(rendered.body)).not.toContain('boom');
  });
});
