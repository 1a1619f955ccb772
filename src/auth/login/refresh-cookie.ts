/**
 * The dashboard's refresh token in a cookie (issue 53 item 4), so a reload keeps the member
 * signed in while no script of the page can read the token: asked for at login with
 * `refreshTokenIn: "cookie"`, it then travels only as `cgk_refresh`, HttpOnly, SameSite=Strict,
 * Secure when the request came over HTTPS (TRUST_PROXY decides what counts behind a proxy), and
 * scoped to Path=/auth/refresh: the browser sends it to the refresh route and nowhere else (no API
 * call, no page, not even logout, which ends the login named by its access token instead).
 * docs/security.md has the CSRF reasoning. Pure helpers over Express' request and response.
 */
import { parse } from 'cookie';
import type { CookieOptions, Request, Response } from 'express';
import { ApiError } from '../../common/errors/api-error';

export const REFRESH_COOKIE = 'cgk_refresh';
/** The spec's path of the refresh route (/api/v1/auth/refresh answers too, without the cookie). */
export const REFRESH_COOKIE_PATH = '/auth/refresh';

export const REFRESH_TOKEN_TRANSPORTS = ['body', 'cookie'] as const;
export type RefreshTokenTransport = (typeof REFRESH_TOKEN_TRANSPORTS)[number];

function options(req: Request): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure: req.secure, path: REFRESH_COOKIE_PATH };
}

/** The refresh token of the cookie, if the request carries one. */
export function refreshTokenFromCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header ? parse(header)[REFRESH_COOKIE] : undefined;
}

/**
 * A refresh by cookie must come as a JSON request (the dashboard sends `{}`): a form or a
 * cross-origin page cannot send one without the CORS preflight this service never grants with
 * credentials, so the cookie alone never refreshes a login on another site's behalf.
 */
export function assertCookieRefreshIsJson(req: Request): void {
  if (req.is('application/json')) return;
  throw new ApiError(
    'INVALID_PARAMS',
    'A refresh by the cgk_refresh cookie needs a JSON body (send {} with Content-Type: application/json)',
    {
      details: [
        {
          field: 'refreshToken',
          constraint: 'cookieNeedsJsonBody',
          message: 'send refreshToken in the body, or {} as JSON beside the cgk_refresh cookie',
        },
      ],
    },
  );
}

export function setRefreshCookie(
  req: Request,
  res: Response,
  token: string,
  lifetimeSeconds: number,
): void {
  res.cookie(REFRESH_COOKIE, token, { ...options(req), maxAge: lifetimeSeconds * 1000 });
}

export function clearRefreshCookie(req: Request, res: Response): void {
  res.clearCookie(REFRESH_COOKIE, options(req));
}

/** The answer to a login or refresh whose refresh token went into the cookie: no token in it. */
export function withoutRefreshToken<T extends { refreshToken: string }>(
  pair: T,
): Omit<T, 'refreshToken'> {
  const { refreshToken: _inCookie, ...rest } = pair;
  return rest;
}
