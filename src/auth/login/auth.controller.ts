import { Body, Controller, Get, Headers, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { ApiError } from '../../common/errors/api-error';
import { ReqMeta, RequestMeta } from '../../common/http/request-meta';
import { NoStore } from '../../common/http/no-store.decorator';
import { AppValidationPipe } from '../../common/validation/app-validation.pipe';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { TotpSetupResponse } from '../mfa/dto/mfa.dto';
import { AuthService } from './auth.service';
import {
  CredentialsDto,
  LoginDto,
  LogoutDto,
  RefreshTokenDto,
  TokenPairResponse,
} from './dto/login.dto';
import {
  assertCookieRefreshIsJson,
  clearRefreshCookie,
  REFRESH_COOKIE,
  refreshTokenFromCookie,
  setRefreshCookie,
  withoutRefreshToken,
} from './refresh-cookie';
import {
  ConfirmSignupDto,
  SignupAvailabilityResponse,
  SignupDto,
  SignupResponse,
} from './dto/signup.dto';
import { SignupService } from './signup.service';

const SIGNUP_BODY = new AppValidationPipe();

/** Served at /auth/* (spec §4) and /api/v1/auth/* (design §4: every endpoint under /api/v1). */
@ApiTags('auth')
@NoStore()
@Public()
@Controller(['auth', 'api/v1/auth'])
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly signups: SignupService,
  ) {}

  @Post('login')
  @HttpCode(200)
  @Operation({
    id: 'login',
    summary: 'Dashboard login: an access token (15 min) and a single-use refresh token (7 days)',
    description:
      'An unknown email and a wrong password get the same INVALID_CREDENTIALS. At most 10 attempts per minute per email and client IP (then RATE_LIMIT_EXCEEDED with retryAfter). With two-factor sign-in, MFA_REQUIRED until `otp` is sent, MFA_INVALID for a wrong or used code (counted as a failed login). After 5 wrong codes for one user within 15 minutes (the defaults), from any address, every code is refused with RATE_LIMIT_EXCEEDED (retryAfter) until the window ends.',
    ok: TokenPairResponse,
    errors: [
      ...JSON_BODY_ERRORS,
      'INVALID_CREDENTIALS',
      'MFA_REQUIRED',
      'MFA_INVALID',
      'RATE_LIMIT_EXCEEDED',
      'SERVICE_UNAVAILABLE',
    ],
  })
  async login(
    @Body() body: LoginDto,
    @ReqMeta() meta: RequestMeta,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { refreshTokenIn, ...credentials } = body;
    const pair = await this.auth.login(credentials, meta);
    if (refreshTokenIn !== 'cookie') return pair;
    setRefreshCookie(req, res, pair.refreshToken, pair.refreshExpiresIn);
    return withoutRefreshToken(pair);
  }

  @Post('mfa/totp/enroll')
  @HttpCode(200)
  @Operation({
    id: 'enrollTotpAtLogin',
    summary:
      'For a member whose account requires two-factor sign-in and who has none: a secret and QR code',
    description:
      'Checked and throttled like a login. Add the secret to an authenticator app, then POST /auth/login with `otp`: that login enables it and returns the recovery codes once.',
    ok: TotpSetupResponse,
    errors: [
      ...JSON_BODY_ERRORS,
      'INVALID_CREDENTIALS',
      'RATE_LIMIT_EXCEEDED',
      'SERVICE_UNAVAILABLE',
    ],
  })
  enroll(@Body() body: CredentialsDto, @ReqMeta() meta: RequestMeta) {
    return this.auth.enrolAtLogin(body, meta);
  }

  @Get('signup')
  @Operation({
    id: 'signupAvailability',
    summary: 'Whether self-service sign-up is open here (SIGNUP_ENABLED), and its password rule',
    ok: SignupAvailabilityResponse,
    errors: ['INTERNAL_ERROR'],
  })
  signupAvailability() {
    return this.signups.availability();
  }

  @Post('signup')
  @HttpCode(201)
  @Operation({
    id: 'signup',
    summary: 'Open an account (SIGNUP_ENABLED): you become the owner of a new free-plan account',
    description:
      'Nothing is created yet: a link is mailed to the address (in demo mode without SMTP_URL, it is logged and returned as `link`), and the account opens when it is followed (POST /auth/signup/confirm). Until then the email is blocked for nobody; the first confirmation wins. The answer is the same whether or not the email already had a login. Every sign-up counts toward the failed-login limit of the client IP, and toward the 10 attempts a minute of its email. 404 NOT_FOUND, like an unknown route, when sign-up is off (the default in production). SERVICE_UNAVAILABLE when the mail server does not take the message.',
    created: SignupResponse,
    errors: [...JSON_BODY_ERRORS, 'NOT_FOUND', 'RATE_LIMIT_EXCEEDED', 'SERVICE_UNAVAILABLE'],
  })
  @ApiBody({ type: SignupDto })
  async signup(@Body() body: unknown, @ReqMeta() meta: RequestMeta) {
    // The body is validated here, not by the global validation guard: when sign-up is off, even
    // a malformed request must get the 404 of an unknown route, not a 400 that reveals the route.
    this.signups.assertEnabled();
    const input = (await SIGNUP_BODY.transform(body, {
      type: 'body',
      metatype: SignupDto,
    })) as SignupDto;
    return this.signups.signup(input, meta);
  }

  @Post('signup/confirm')
  @HttpCode(201)
  @Operation({
    id: 'confirmSignup',
    summary: 'Follow a mailed sign-up link: the account opens, unless the email has a login by now',
    description:
      'The answer is the same whether the account was opened or the email already had a login (the first confirmation wins); log in next. Single use: NOT_FOUND for an unknown, used or expired (24 h) token. Counted like a sign-up toward the failed-login limit of the client IP, and at most 10 attempts a minute per token (RATE_LIMIT_EXCEEDED). 404 NOT_FOUND, like an unknown route, when sign-up is off.',
    created: SignupResponse,
    errors: [...JSON_BODY_ERRORS, 'NOT_FOUND', 'RATE_LIMIT_EXCEEDED', 'SERVICE_UNAVAILABLE'],
  })
  @ApiBody({ type: ConfirmSignupDto })
  async confirmSignup(@Body() body: unknown, @ReqMeta() meta: RequestMeta) {
    this.signups.assertEnabled();
    const input = (await SIGNUP_BODY.transform(body, {
      type: 'body',
      metatype: ConfirmSignupDto,
    })) as ConfirmSignupDto;
    return this.signups.confirm(input.token, meta);
  }

  @Post('refresh')
  @HttpCode(200)
  @Operation({
    id: 'refreshTokens',
    summary: 'Rotate: a new token pair; replaying a used refresh token revokes the whole login',
    description: `JWT_INVALID for an invalid, expired, revoked or reused refresh token; after reuse, log in again. Without refreshToken in the body, the \`${REFRESH_COOKIE}\` cookie of a login with refreshTokenIn: cookie is used (the body must then be JSON, e.g. {}), and the new refresh token replaces it in the cookie, not in the answer; a refused cookie is cleared.`,
    ok: TokenPairResponse,
    errors: [...JSON_BODY_ERRORS, 'JWT_INVALID', 'SERVICE_UNAVAILABLE'],
  })
  async refresh(
    @Body() body: RefreshTokenDto,
    @ReqMeta() meta: RequestMeta,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    if (body.refreshToken !== undefined) return this.auth.refresh(body.refreshToken, meta);
    const cookie = refreshTokenFromCookie(req);
    if (cookie === undefined)
      throw new ApiError('INVALID_PARAMS', 'Request validation failed: refreshToken', {
        details: [
          {
            field: 'refreshToken',
            constraint: 'isDefined',
            message: `refreshToken is required (or the ${REFRESH_COOKIE} cookie of a login with refreshTokenIn: cookie)`,
          },
        ],
      });
    assertCookieRefreshIsJson(req);
    try {
      const pair = await this.auth.refresh(cookie, meta);
      setRefreshCookie(req, res, pair.refreshToken, pair.refreshExpiresIn);
      return withoutRefreshToken(pair);
    } catch (err) {
      clearRefreshCookie(req, res);
      throw err;
    }
  }

  @Post('logout')
  @HttpCode(204)
  @Operation({
    id: 'logout',
    summary: 'End the login: its access and refresh tokens stop working',
    description: `The login of the refresh token in the body, or else of the access token sent as Authorization: Bearer (a dashboard whose refresh token is in the \`${REFRESH_COOKIE}\` cookie). The cookie is cleared either way.`,
    noContent: 'Logged out',
    errors: [...JSON_BODY_ERRORS, 'JWT_INVALID', 'JWT_MISSING', 'SERVICE_UNAVAILABLE'],
  })
  async logout(
    @Body() body: LogoutDto,
    @ReqMeta() meta: RequestMeta,
    @Headers('authorization') authorization: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    clearRefreshCookie(req, res);
    if (body.refreshToken !== undefined)
      return this.auth.logout(body.refreshToken, 'refresh', meta);
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!bearer)
      throw new ApiError(
        'JWT_MISSING',
        'Send the refresh token of the login to end, or its access token as Authorization: Bearer',
      );
    await this.auth.logout(bearer, 'access', meta);
  }
}
