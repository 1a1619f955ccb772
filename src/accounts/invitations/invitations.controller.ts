import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentMember, MemberActor } from '../../auth/member-actor';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireRole } from '../../auth/require-role.decorator';
import { RequireDashboardLogin } from '../../auth/require-scope.decorator';
import { MEMBER_MANAGERS } from '../../auth/roles';
import { ApiError } from '../../common/errors/api-error';
import { NoStore } from '../../common/http/no-store.decorator';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import {
  CreatedInvitationResponse,
  CreateInvitationDto,
  InvitationListResponse,
  InvitationResponse,
} from './dto/invitation.dto';
import { InvitationsService } from './invitations.service';

/** Invitations to the caller's account: owner and admins only. */
@ApiTags('account')
@NoStore()
@RequireDashboardLogin()
@RequireRole(...MEMBER_MANAGERS)
@Controller('api/v1/account/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Post()
  @Operation({
    id: 'createInvitation',
    summary: 'Invite someone by email with a role (owner or admin); the link is mailed to them',
    description:
      'The link is mailed to the address (SMTP_URL); accepting it (POST /auth/invitations/accept with a password) proves control of the address. In demo mode without SMTP only, the token and link are in this answer, once (`mailed: false`). It expires after INVITATION_TTL_HOURS (7 days by default) and works once; a new invitation for the same email replaces a pending one. Until it is accepted no login exists and the email is blocked for nobody. ' +
      'An admin invites developers and viewers; the owner also admins. INVALID_PARAMS when the email is already a member of your account; the answer is otherwise the same whether or not the email has a login elsewhere. NOT_FOUND when invitations are off (INVITATIONS_ENABLED); SERVICE_UNAVAILABLE when the mail server does not take the message.',
    created: CreatedInvitationResponse,
    errors: [...JSON_BODY_ERRORS, 'ROLE_FORBIDDEN', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  })
  create(@CurrentMember() member: MemberActor, @Body() body: CreateInvitationDto) {
    return this.invitations.invite(member, body);
  }

  @Get()
  @Operation({
    id: 'listInvitations',
    summary: 'Pending invitations of your account (owner or admin), newest first; no tokens',
    ok: InvitationListResponse,
    errors: ['ROLE_FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  })
  async list(@CurrentPrincipal() principal: Principal) {
    return { items: await this.invitations.listPending(principal.accountId) };
  }

  @Delete(':id')
  @Operation({
    id: 'revokeInvitation',
    summary: 'Revoke a pending invitation (owner or admin): its token stops working',
    description: 'NOT_FOUND when no pending invitation with this id belongs to your account.',
    params: [
      {
        name: 'id',
        format: 'uuid',
        description: 'The invitation id (GET /api/v1/account/invitations lists them).',
        example: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      },
    ],
    ok: InvitationResponse,
    errors: ['ROLE_FORBIDDEN', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  })
  revoke(
    @CurrentMember() member: MemberActor,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: invitationNotFound })) id: string,
  ) {
    return this.invitations.revoke(member, id);
  }
}

function invitationNotFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No pending invitation with this id in your account', {
    hint: 'GET /api/v1/account/invitations lists the pending invitations.',
  });
}
