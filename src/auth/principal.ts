import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Role } from './roles';
import type { Scope } from './scopes';

export type AuthMethod = 'api_key' | 'jwt';

/** Who is calling a protected endpoint; attached to the request by the auth guard. */
export interface Principal {
  method: AuthMethod;
  accountId: string;
  /** Set for JWT (dashboard) callers. */
  userId?: string;
  /** Set for API key callers. */
  apiKeyId?: string;
  /** Login session (refresh-token family) of a JWT caller. */
  sessionId?: string;
  /** The JWT caller's role in the account, read for this request (API keys have none: scopes). */
  role?: Role;
  scopes: readonly Scope[];
}

type RequestWithPrincipal = Request & { principal?: Principal };

export function principalOf(req: unknown): Principal | undefined {
  return (req as RequestWithPrincipal).principal;
}

export function attachPrincipal(req: unknown, principal: Principal): void {
  (req as RequestWithPrincipal).principal = principal;
}

/** The authenticated caller of a protected endpoint (`undefined` only on @Public() routes). */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal | undefined =>
    principalOf(context.switchToHttp().getRequest()),
);
