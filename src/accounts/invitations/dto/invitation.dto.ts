import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, Length, Matches, MaxLength } from 'class-validator';
import { Role, ROLES } from '../../../auth/roles';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../auth/users/users.service';
import { ApiRequestExample } from '../../../common/openapi/api-request-example.decorator';

/** Roles one can be invited with: ownership is transferred, never invited. */
export const INVITABLE_ROLES = ROLES.filter((role) => role !== 'owner');

@ApiRequestExample({ email: 'dev@acme.test', role: 'developer' })
export class CreateInvitationDto {
  @ApiProperty({ example: 'dev@acme.test', maxLength: 320 })
  @IsEmail()
  @MaxLength(320)
  email: string;

  @ApiProperty({
    enum: INVITABLE_ROLES,
    example: 'developer',
    description: 'An admin invites developers and viewers; the owner also admins.',
  })
  @IsIn(INVITABLE_ROLES)
  role: Role;
}

@ApiRequestExample({ token: 'inv_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })
export class InvitationTokenDto {
  @ApiProperty({
    description: 'The invitation token (inv_...) from the invitation or its link',
    example: 'inv_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  })
  @IsString()
  @Matches(/^inv_[A-Za-z0-9_-]{43}$/, { message: 'token must be an invitation token (inv_...)' })
  token: string;
}

@ApiRequestExample({
  token: 'inv_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  password: 'a long passphrase of yours',
})
export class AcceptInvitationDto extends InvitationTokenDto {
  @ApiProperty({
    format: 'password',
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
    description: `The new user's password: at least ${PASSWORD_MIN_LENGTH} characters.`,
  })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  password: string;
}

export class InvitationPreviewResponse {
  @ApiProperty({ example: 'Acme Treasury', description: 'The account the invitation joins' })
  accountName: string;
  @ApiProperty({ example: 'dev@acme.test', description: 'The email the invitation was sent to' })
  email: string;
  @ApiProperty({ enum: INVITABLE_ROLES, example: 'developer' }) role: Role;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class InvitationItem {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'dev@acme.test' }) email: string;
  @ApiProperty({ enum: INVITABLE_ROLES, example: 'developer' }) role: Role;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) invitedByUserId: string | null;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class InvitationResponse extends InvitationItem {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
}

export class CreatedInvitationResponse extends InvitationResponse {
  @ApiProperty({
    description:
      'true: the link was mailed to the invitee (SMTP_URL), and neither token nor link is in this answer. false (demo mode without SMTP only): token and link are here, once.',
  })
  mailed: boolean;

  @ApiPropertyOptional({
    description:
      'Demo mode without SMTP only: the invitation token, shown in this response only. The invitee sends it with a password to POST /auth/invitations/accept.',
    example: 'inv_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  })
  token?: string;

  @ApiPropertyOptional({
    description:
      'Demo mode without SMTP only: the dashboard link that carries the token (a full URL when PUBLIC_BASE_URL is set, else a path)',
    example: '/dashboard/#accept-invitation=inv_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  })
  link?: string;
}

export class InvitationListResponse {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
  @ApiProperty({
    type: [InvitationItem],
    description: 'Pending invitations (not accepted, revoked or expired), newest first',
  })
  items: InvitationItem[];
}

export class AcceptedInvitationResponse {
  @ApiProperty({ example: 'dev@acme.test' }) email: string;
  @ApiProperty({ enum: INVITABLE_ROLES, example: 'developer' }) role: Role;
  @ApiProperty({
    description:
      'The same answer whether or not the email already had a login (nothing tells them apart): an email belongs to one account, so one that has a login elsewhere gets nothing new.',
    example:
      'If this email had no login yet, it now has one in the inviting account, with this role: log in with POST /auth/login. An email belongs to one account.',
  })
  message: string;
  @ApiProperty({ example: '/auth/login' }) next: string;
}
