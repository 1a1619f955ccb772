import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import {
  REFRESH_COOKIE,
  REFRESH_COOKIE_PATH,
  REFRESH_TOKEN_TRANSPORTS,
  type RefreshTokenTransport,
} from '../refresh-cookie';

/** Email and password: the first factor (login, and enrolment at login). */
export class CredentialsDto {
  @ApiProperty({ example: 'ops@acme.test', maxLength: 320 })
  @IsEmail()
  @MaxLength(320)
  email: string;

  @ApiProperty({ format: 'password', minLength: 1, maxLength: 1024 })
  @IsString()
  @Length(1, 1024)
  password: string;
}

export class LoginDto extends CredentialsDto {
  @ApiPropertyOptional({
    description:
      'With two-factor sign-in: the 6-digit code of the authenticator app, or an unused recovery code (MFA_REQUIRED without it, MFA_INVALID when wrong or already used)',
    example: '123456',
    maxLength: 32,
  })
  @IsOptional()
  @IsString()
  @Length(6, 32)
  otp?: string;

  @ApiPropertyOptional({
    enum: REFRESH_TOKEN_TRANSPORTS,
    default: 'body',
    description: `Where the refresh token goes. body (default): in the answer, for API clients. cookie (the dashboard): only in the \`${REFRESH_COOKIE}\` cookie (HttpOnly, SameSite=Strict, Secure over HTTPS, Path=${REFRESH_COOKIE_PATH}), never in the answer, so no script reads it and a reload can resume the login with POST ${REFRESH_COOKIE_PATH} {}.`,
  })
  @IsOptional()
  @IsIn(REFRESH_TOKEN_TRANSPORTS)
  refreshTokenIn?: RefreshTokenTransport;
}

export class RefreshTokenDto {
  @ApiPropertyOptional({
    description: `The refresh token of the last login or refresh response. Leave it out (send {}) to use the \`${REFRESH_COOKIE}\` cookie of a login with refreshTokenIn: cookie: the new one then goes into the cookie too.`,
  })
  @IsOptional()
  @IsString()
  @Length(1, 4096)
  refreshToken?: string;
}

export class LogoutDto {
  @ApiPropertyOptional({
    description:
      'The refresh token of the login to end. Leave it out to end the login of the access token sent as Authorization: Bearer (a dashboard whose refresh token is in the cookie); the cookie is cleared either way.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 4096)
  refreshToken?: string;
}

export class TokenPairResponse {
  @ApiProperty({
    description: 'Send as Authorization: Bearer <accessToken>',
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9…',
  })
  accessToken: string;
  @ApiPropertyOptional({
    description: `Single use: POST /auth/refresh returns a new pair and retires this one. Absent when the login asked for refreshTokenIn: cookie (it is in the \`${REFRESH_COOKIE}\` cookie instead).`,
  })
  refreshToken?: string;
  @ApiProperty({ enum: ['Bearer'] }) tokenType: 'Bearer';
  @ApiProperty({ type: 'integer', description: 'Access token lifetime in seconds', example: 900 })
  expiresIn: number;
  @ApiProperty({
    type: 'integer',
    description: 'Refresh token lifetime in seconds',
    example: 604800,
  })
  refreshExpiresIn: number;
  @ApiPropertyOptional({
    type: [String],
    description:
      'Only when this login finished enrolling an authenticator (account requires MFA): ten single-use recovery codes, shown this once',
  })
  recoveryCodes?: string[];
}
