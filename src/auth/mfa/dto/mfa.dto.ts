import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';
import { ApiRequestExample } from '../../../common/openapi/api-request-example.decorator';

@ApiRequestExample({ code: '123456' })
export class TotpCodeDto {
  @ApiProperty({
    description:
      'The 6-digit code the authenticator app shows now (disable also takes an unused recovery code)',
    example: '123456',
    minLength: 6,
    maxLength: 32,
  })
  @IsString()
  @Length(6, 32)
  code: string;
}

export class TotpSetupResponse {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
  @ApiProperty({
    description: 'Base32 secret, for typing into an app by hand; shown by this call only',
    example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  })
  secret: string;
  @ApiProperty({
    example:
      'otpauth://totp/Compliance%20DeFi%20Builder:ops%40acme.test?secret=JBSWY3DPEHPK3PXP&issuer=Compliance%20DeFi%20Builder',
  })
  otpauthUri: string;
  @ApiProperty({ description: 'The otpauth URI as a QR code (PNG data URL) to scan' })
  qrCodeDataUrl: string;
}

export class RecoveryCodesResponse {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
  @ApiProperty({
    type: [String],
    description:
      'Ten single-use codes for when the authenticator is lost: shown this once, stored only as HMACs. Use one as `otp` at login.',
    example: ['k7m2p-x9qra', 'b3hzn-4tdwe'],
  })
  recoveryCodes: string[];
}

export class MfaStatusResponse {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
  @ApiProperty({ description: 'Two-factor sign-in is on for this user' }) enabled: boolean;
  @ApiProperty({ description: 'The account requires two-factor sign-in of every member' })
  requiredByAccount: boolean;
}

@ApiRequestExample({ mfaRequired: true })
export class UpdateAccountSecurityDto {
  @ApiPropertyOptional({
    description:
      'Every member must sign in with a second factor; members without one enrol at their next login',
  })
  @IsOptional()
  @IsBoolean()
  mfaRequired?: boolean;
}

export class AccountSecurityResponse {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
  @ApiProperty() mfaRequired: boolean;
}
