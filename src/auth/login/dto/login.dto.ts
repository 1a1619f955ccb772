import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Length, MaxLength } from 'class-validator';

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
}

export class RefreshTokenDto {
  @ApiProperty({ description: 'The refresh token of the last login or refresh response' })
  @IsString()
  @Length(1, 4096)
  refreshToken: string;
}

export class TokenPairResponse {
  @ApiProperty({
    description: 'Send as Authorization: Bearer <accessToken>',
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9…',
  })
  accessToken: string;
  @ApiProperty({
    description: 'Single use: POST /auth/refresh returns a new pair and retires this one',
  })
  refreshToken: string;
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
