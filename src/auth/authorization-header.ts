import { ApiError } from '../common/errors/api-error';

/** `<prefix>_{test|live}_...`: an API key, whatever the service prefix (the format check is later). */
const API_KEY_SHAPE = /^Bearer +[a-z][a-z0-9]{1,15}_(?:test|live)_\S*$/i;

/**
 * An Authorization header that is not `Bearer <JWT>`. The common mistake, an API key sent as a
 * bearer token, gets a hint that says where API keys go.
 */
export function malformedAuthorization(authorization: string): ApiError {
  if (API_KEY_SHAPE.test(authorization.trim())) {
    return new ApiError('JWT_MISSING', 'The bearer token is an API key, not an access token', {
      hint: 'Send API keys in the X-API-Key header (X-API-Key: <key>); Authorization: Bearer takes only the accessToken from POST /auth/login.',
    });
  }
  return new ApiError('JWT_MISSING', 'The Authorization header is not "Bearer <accessToken>"');
}
