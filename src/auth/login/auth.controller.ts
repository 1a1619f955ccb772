import { Body, Controller, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/public.decorator';
import { NoStore } from '../../common/http/no-store.decorator';
import { ApiErrors, JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { AuthService } from './auth.service';
import { LoginDto, RefreshTokenDto, TokenPairResponse } from './dto/login.dto';

/** Served at /auth/* (spec §4) and /api/v1/auth/* (design §4: every endpoint under /api/v1). */
@ApiTags('auth')
@NoStore()
@Public()
@Controller(['auth', 'api/v1/auth'])
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'login',
    summary: 'Dashboard login: an access token (15 min) and a single-use refresh token (7 days)',
    description:
      'An unknown email and a wrong password get the same INVALID_CREDENTIALS. At most 10 attempts per minute per email and client IP (then RATE_LIMIT_EXCEEDED with retryAfter).',
  })
  @ApiOkResponse({ type: TokenPairResponse })
  @ApiErrors(
    ...JSON_BODY_ERRORS,
    'INVALID_CREDENTIALS',
    'RATE_LIMIT_EXCEEDED',
    'SERVICE_UNAVAILABLE',
  )
  login(@Body() body: LoginDto, @Ip() ip: string) {
    return this.auth.login(body.email, body.password, ip);
  }

  @Post('refresh')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'refreshTokens',
    summary: 'Rotate: a new token pair; replaying a used refresh token revokes the whole login',
    description:
      'JWT_INVALID for an invalid, expired, revoked or reused refresh token; after reuse, log in again.',
  })
  @ApiOkResponse({ type: TokenPairResponse })
  @ApiErrors(...JSON_BODY_ERRORS, 'JWT_INVALID', 'SERVICE_UNAVAILABLE')
  refresh(@Body() body: RefreshTokenDto) {
    return this.auth.refresh(body.refreshToken);
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'logout',
    summary: 'End the login: its access and refresh tokens stop working',
  })
  @ApiNoContentResponse({ description: 'Logged out' })
  @ApiErrors(...JSON_BODY_ERRORS, 'JWT_INVALID', 'SERVICE_UNAVAILABLE')
  async logout(@Body() body: RefreshTokenDto): Promise<void> {
    await this.auth.logout(body.refreshToken);
  }
}
