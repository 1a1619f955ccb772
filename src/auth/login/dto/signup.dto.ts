import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, Length, MaxLength } from 'class-validator';
import { ApiRequestExample } from '../../../common/openapi/api-request-example.decorator';
import { IsPrintableName } from '../../../common/validation/is-printable-name';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../users/users.service';

/** Same bound as accounts' own (account.entity.ts ACCOUNT_NAME_MAX_LENGTH). */
const ACCOUNT_NAME_MAX = 200;

@ApiRequestExample({
  email: 'ops@acme.test',
  password: 'correct horse battery staple',
  accountName: 'Acme Treasury',
})
export class SignupDto {
  @ApiProperty({ example: 'ops@acme.test', maxLength: 320 })
  @IsEmail()
  @MaxLength(320)
  email: string;

  @ApiProperty({
    format: 'password',
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
  })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, {
    message: `password must have ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
  })
  password: string;

  @ApiProperty({ example: 'Acme Treasury', maxLength: ACCOUNT_NAME_MAX })
  @IsString()
  @Length(1, ACCOUNT_NAME_MAX)
  @IsPrintableName()
  accountName: string;
}

export class SignupResponse {
  @ApiProperty({ example: 'ops@acme.test' }) email: string;
  @ApiProperty({
    description:
      'The same answer whether or not the email already had a login (nothing tells them apart).',
    example:
      'Follow the link sent to this address to open the account (POST /auth/signup/confirm with its token), then log in with POST /auth/login.',
  })
  message: string;
  @ApiProperty({
    description:
      'Where to go next: /auth/signup/confirm after a sign-up (with the token of the mailed link), /auth/login after a confirmation',
    example: '/auth/signup/confirm',
  })
  next: string;
  @ApiPropertyOptional({
    description:
      'Demo mode without SMTP_URL only (no mail is sent): the confirmation link that would have been mailed. Present or absent for every email alike.',
    example: '/dashboard/#confirm-signup=suc_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  })
  link?: string;
}

@ApiRequestExample({ token: 'suc_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })
export class ConfirmSignupDto {
  @ApiProperty({
    description: 'The token of the mailed link (after #confirm-signup=)',
    example: 'suc_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    maxLength: 100,
  })
  @IsString()
  @Length(1, 100)
  token: string;
}

export class SignupAvailabilityResponse {
  @ApiProperty({ description: 'POST /auth/signup is open (otherwise it answers 404 NOT_FOUND)' })
  enabled: boolean;
  @ApiProperty({ type: 'integer', example: PASSWORD_MIN_LENGTH })
  passwordMinLength: number;
}
