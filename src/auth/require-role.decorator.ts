import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Role } from './roles';

export const ROLE_REQUIREMENT_KEY = 'roleRequirement';
export const ANY_ROLE_KEY = 'anyRole';

/**
 * A dashboard user needs one of `roles` in the account (403 ROLE_FORBIDDEN otherwise, with a hint
 * naming them). API keys are governed by scopes, not roles.
 */
export function RequireRole(...roles: [Role, ...Role[]]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ROLE_REQUIREMENT_KEY, roles),
    ApiExtension('x-required-role', roles.join(' or ')),
  );
}

/**
 * Self-service routes every member may call whatever their role, even with an unsafe method
 * (their own MFA enrolment, their profile). Without it a `viewer` may only GET/HEAD: the auth
 * guard refuses a viewer's POST/PATCH/PUT/DELETE with 403 ROLE_FORBIDDEN.
 */
export function AnyRole(): MethodDecorator & ClassDecorator {
  return SetMetadata(ANY_ROLE_KEY, true);
}
