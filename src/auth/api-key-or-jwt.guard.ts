import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { IS_PUBLIC_KEY } from '../common/auth/public.decorator';
import { ApiError } from '../common/errors/api-error';
import { preventStoring } from '../common/http/no-store.decorator';
import { ApiKeysService } from './api-keys/api-keys.service';
import { malformedAuthorization } from './authorization-header';
import { attachPrincipal, Principal } from './principal';
import { AUTH_REQUIREMENT_KEY, AuthRequirement } from './require-scope.decorator';
import { AuthSessionsService } from './tokens/auth-sessions.service';
import { invalid, JwtTokensService } from './tokens/jwt-tokens.service';
import { SCOPES } from './scopes';
import { FailedAuthThrottle } from './throttling/failed-auth.throttle';

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
    private readonly apiKeys: ApiKeysService,
    private readonly tokens: JwtTokensService,
    private readonly sessions: AuthSessionsService,
    private readonly failures: FailedAuthThrottle,
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
    authorize(principal, requirement);
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
    if (
      !(await this.sessions.isActiveFor(claims.sid, { userId: claims.sub, accountId: claims.acc }))
    )
      throw invalid('access', 'This login was ended (logout or token reuse)');
    return {
      method: 'jwt',
      accountId: claims.acc,
      userId: claims.sub,
      sessionId: claims.sid,
      scopes: SCOPES,
    };
  }

  /** Refused keys count against the client IP (spec §5 codes stay; guessing them is throttled). */
  private async authenticateApiKey(req: Request, header: string | string[]): Promise<Principal> {
    this.failures.assertAllowed('api_key', req.ip);
    try {
      return await this.apiKeys.authenticate(Array.isArray(header) ? header.join(',') : header);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401)
        throw await this.failures.recordFailure('api_key', req.ip, error);
      throw error;
    }
  }
}

function authorize(principal: Principal, requirement: AuthRequirement): void {
  if (principal.method !== 'api_key') return;
  if (requirement.jwtOnly) {
    throw new ApiError('API_KEY_SCOPE_MISSING', 'This endpoint does not accept API keys', {
      hint: 'Key management needs a dashboard login (JWT): POST /auth/login, then send Authorization: Bearer <accessToken>.',
    });
  }
  const scopes = requirement.scopes ?? [];
  if (scopes.length > 0 && !scopes.some((scope) => principal.scopes.includes(scope))) {
    const required = scopes.join(' or ');
    throw new ApiError('API_KEY_SCOPE_MISSING', `This API key lacks the ${required} scope`, {
      details: [{ requiredScope: required, keyScopes: principal.scopes }],
    });
  }
}
