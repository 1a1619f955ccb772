import { applyDecorators, SetMetadata } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtension,
  ApiForbiddenResponse,
  ApiResponse,
  ApiSecurity,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Scope } from './scopes';

export const AUTH_REQUIREMENT_KEY = 'authRequirement';

export interface AuthRequirement {
  /** An API key needs one of these (JWT users hold every scope). */
  scopes?: readonly Scope[];
  /** Dashboard-only endpoints (key management): API keys are refused. */
  jwtOnly?: boolean;
}

const UNAUTHORIZED =
  'Authentication failed: API_KEY_MISSING, API_KEY_FORMAT_INVALID, API_KEY_PREFIX_NOT_FOUND, API_KEY_HASH_MISMATCH, ' +
  'API_KEY_INACTIVE, API_KEY_EXPIRED, JWT_MISSING or JWT_INVALID (error envelope).';
const TOO_MANY =
  'RATE_LIMIT_EXCEEDED: the account used its requests for this 60 s window; wait `retryAfter` seconds (also in Retry-After).';

const QUOTA =
  'QUOTA_EXCEEDED: the account used its monthly request quota; details {limit, used, resetsAt}. Every protected response carries X-Quota-Limit, X-Quota-Remaining and X-Quota-Reset.';

/**
 * Protects a route with the API-key-then-JWT guard and requires `scope` of API keys, or any one
 * of several (JWT users hold every scope). Documents both security schemes and the auth/limit
 * responses in OpenAPI.
 */
export function RequireScope(...scopes: [Scope, ...Scope[]]): MethodDecorator & ClassDecorator {
  const listed = scopes.map((scope) => `\`${scope}\``).join(' or ');
  return applyDecorators(
    SetMetadata(AUTH_REQUIREMENT_KEY, { scopes } satisfies AuthRequirement),
    ApiSecurity('api-key'),
    ApiBearerAuth('jwt'),
    ApiExtension('x-required-scope', scopes.join(' or ')),
    ApiUnauthorizedResponse({ description: UNAUTHORIZED }),
    ApiForbiddenResponse({
      description: `API_KEY_SCOPE_MISSING: the API key ${scopes.length > 1 ? 'holds neither' : 'lacks the'} ${listed}${scopes.length > 1 ? '' : ' scope'}. ROLE_FORBIDDEN: the dashboard user's role may not do this (a viewer only reads).`,
    }),
    ApiTooManyRequestsResponse({ description: TOO_MANY }),
    ApiResponse({ status: 402, description: QUOTA }),
  );
}

/** Dashboard-only routes: a Bearer access token from POST /auth/login; API keys get 403. */
export function RequireDashboardLogin(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(AUTH_REQUIREMENT_KEY, { jwtOnly: true } satisfies AuthRequirement),
    ApiBearerAuth('jwt'),
    ApiUnauthorizedResponse({ description: UNAUTHORIZED }),
    ApiForbiddenResponse({
      description:
        "API_KEY_SCOPE_MISSING: this needs a dashboard login (JWT), not an API key. ROLE_FORBIDDEN: the user's role may not do this (details name the roles allowed).",
    }),
    ApiTooManyRequestsResponse({ description: TOO_MANY }),
    ApiResponse({ status: 402, description: QUOTA }),
  );
}
