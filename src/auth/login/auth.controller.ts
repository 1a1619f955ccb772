import { Body, Controller, HttpCode, Ip, Post } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '../../common/auth/public.decorator';
import { AuthService } from './auth.service';
import { LoginDto, RefreshTokenDto, TokenPairResponse } from './dto/login.dto';

/** Served at /auth/* (spec §4) and /api/v1/auth/* (design §4: every endpoint under /api/v1). */
@ApiTags('auth')
@Public()
@Controller(['auth', 'api/v1/auth'])
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Dashboard login: an access token (15 min) and a single-use refresh token (7 days)',
  })
  @ApiOkResponse({ type: TokenPairResponse })
  @ApiUnauthorizedResponse({
    description: 'INVALID_CREDENTIALS (same answer for an unknown email and a wrong password)',
  })
  @ApiTooManyRequestsResponse({
    description: 'RATE_LIMIT_EXCEEDED: too many attempts for this email from this IP this minute',
  })
  login(@Body() body: LoginDto, @Ip() ip: string) {
    return this.auth.login(body.email, body.password, ip);
  }

  @Post('refresh')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate: a new token pair; replaying a used refresh token revokes the whole login',
  })
  @ApiOkResponse({ type: TokenPairResponse })
  @ApiUnauthorizedResponse({
    description: 'JWT_INVALID: invalid, expired, revoked or reused refresh token',
  })
  refresh(@Body() body: RefreshTokenDto) {
    return this.auth.refresh(body.refreshToken);
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({ summary: 'End the login: its access and refresh tokens stop working' })
  @ApiNoContentResponse({ description: 'Logged out' })
  @ApiUnauthorizedResponse({ description: 'JWT_INVALID: not a valid refresh token' })
  async logout(@Body() body: RefreshTokenDto): Promise<void> {
    await this.auth.logout(body.refreshToken);
  }
}
