import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { IS_PUBLIC_KEY } from '../common/auth/public.decorator';
import { ApiError } from '../common/errors/api-error';
import { preventStoring } from '../common/http/no-store.decorator';
import { ApiKeyAuthenticator } from './api-keys/api-key-authenticator';
import { malformedAuthorization } from './authorization-header';
import { attachPrincipal, Principal } from './principal';
import { ANY_ROLE_KEY, ROLE_REQUIREMENT_KEY } from './require-role.decorator';
import { Role, roleForbidden, SAFE_METHODS } from './roles';
import { AUTH_REQUIREMENT_KEY, AuthRequirement } from './require-scope.decorator';
import { AuthSessionsService } from './tokens/auth-sessions.service';
import { invalid, JwtTokensService } from './tokens/jwt-tokens.service';
import { SCOPES } from './scopes';
import { FailedAuthThrottle } from './throttling/failed-auth.throttle';
import { UsersService } from './users/users.service';

// The signature part may be empty: an unsigned (alg "none") JWT is a token, and an invalid one.
const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i;

/**
 * Global guard (after request validation, before the rate limit). X-API-Key present: the key
 * alone decides (spec §5.1). Otherwise Authorization: Bearer <access JWT>. Routes without
 * @Public() need a principal; @RequireScope / @RequireDashboardLogin add their requirement.
 * Their responses are never stored by a cache (Cache-Control: no-store).
 */
@Injectable()
export class ApiKeyOrJwtGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyAuthenticator,
    private readonly tokens: JwtTokensService,
    private readonly sessions: AuthSessionsService,
    private readonly failures: FailedAuthThrottle,
    private readonly users: UsersService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) return true;
    const requirement =
      this.reflector.getAllAndOverride<AuthRequirement>(AUTH_REQUIREMENT_KEY, targets) ?? {};
    const http = context.switchToHttp();
    // Every answer of a protected route is one caller's (account data, one-time nonces and
    // challenges, its refusals): set here, once, so no route can forget it.
    preventStoring(http.getResponse<Response>());
    const req = http.getRequest<Request>();
    const principal = await this.authenticate(req);
    // From here on the request belongs to an account: the usage module meters it, whatever
    // happens next (scope refusal, rate limit, handler error).
    attachPrincipal(req, principal);
    authorize(principal, requirement, `${req.method} ${req.path}`);
    authorizeRole(principal, req.method, {
      roles: this.reflector.getAllAndOverride<Role[]>(ROLE_REQUIREMENT_KEY, targets),
      anyRole: this.reflector.getAllAndOverride<boolean>(ANY_ROLE_KEY, targets) ?? false,
    });
    return true;
  }

  private async authenticate(req: Request): Promise<Principal> {
    const apiKey = req.headers['x-api-key'];
    if (apiKey !== undefined) return this.authenticateApiKey(req, apiKey);
    const authorization = req.headers.authorization;
    if (authorization === undefined) {
      throw new ApiError(
        'API_KEY_MISSING',
        'No credentials: send an X-API-Key header or Authorization: Bearer <accessToken>',
      );
    }
    const match = BEARER.exec(authorization.trim());
    if (!match) throw malformedAuthorization(authorization);
    const claims = await this.tokens.verify(match[1], 'access');
    // Both read per request: a logout, a removal or a role change applies to the next request.
    const [active, role] = await Promise.all([
      this.sessions.isActiveFor(claims.sid, { userId: claims.sub, accountId: claims.acc }),
      this.users.roleOf(claims.sub, claims.acc),
    ]);
    if (!active || role === null)
      throw invalid(
        'access',
        'This login was ended (logout, token reuse or removal from the account)',
      );
    return {
      method: 'jwt',
      accountId: claims.acc,
      userId: claims.sub,
      sessionId: claims.sid,
      role,
      scopes: SCOPES,
    };
  }

  /** Refused keys count against the client IP (spec §5 codes stay; guessing them is throttled). */
  private async authenticateApiKey(req: Request, header: string | string[]): Promise<Principal> {
    if (this.failures.refusesAny) this.failures.assertAllowed('api_key', req.ip);
    try {
      return await this.apiKeys.authenticate(Array.isArray(header) ? header.join(',') : header);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401)
        throw await this.failures.recordFailure('api_key', req.ip, error);
      throw error;
    }
  }
}

function authorize(principal: Principal, requirement: AuthRequirement, route: string): void {
  if (principal.method !== 'api_key') return;
  if (requirement.jwtOnly) {
    // What the route needs, said as such (issue 53): not a scope any key could get.
    throw new ApiError(
      'API_KEY_SCOPE_MISSING',
      `${route} needs a member's dashboard login (JWT), not an API key`,
      {
        hint: "Use a member's dashboard login (JWT): POST /auth/login with the member's email and password, then send Authorization: Bearer <accessToken>; no API key scope opens this route. The member's role decides what it may change.",
        details: [{ requires: 'jwt', route }],
      },
    );
  }
  const scopes = requirement.scopes ?? [];
  if (scopes.length > 0 && !scopes.some((scope) => principal.scopes.includes(scope))) {
    const required = scopes.join(' or ');
    const withScope = JSON.stringify([...principal.scopes, scopes[0]]);
    throw new ApiError('API_KEY_SCOPE_MISSING', `This API key lacks the ${required} scope`, {
      hint: `Add the scope to this key: PATCH /api/v1/api-keys/${principal.apiKeyId ?? ':id'} {"scopes": ${withScope}} as a member (owner, admin or developer) with a dashboard login; the key and its secret stay the same.`,
      details: [
        { requiredScope: required, keyScopes: principal.scopes, keyId: principal.apiKeyId },
      ],
    });
  }
}

/**
 * Roles bind dashboard users only (API keys have scopes). A route's @RequireRole names the roles
 * it needs; without one, a `viewer` may read (GET/HEAD) but change nothing, except on @AnyRole()
 * routes (self-service: their own MFA, their profile).
 */
function authorizeRole(
  principal: Principal,
  method: string,
  rule: { roles: Role[] | undefined; anyRole: boolean },
): void {
  const role = principal.role;
  if (principal.method !== 'jwt' || role === undefined) return;
  if (rule.roles && rule.roles.length > 0) {
    if (!rule.roles.includes(role)) throw roleForbidden(role, rule.roles);
    return;
  }
  if (rule.anyRole || role !== 'viewer' || SAFE_METHODS.includes(method.toUpperCase())) return;
  throw roleForbidden(role, ['owner', 'admin', 'developer']);
}
