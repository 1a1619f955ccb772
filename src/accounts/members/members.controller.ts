import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Patch,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentMember, MemberActor } from '../../auth/member-actor';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireRole } from '../../auth/require-role.decorator';
import { RequireDashboardLogin } from '../../auth/require-scope.decorator';
import { MEMBER_MANAGERS } from '../../auth/roles';
import { ApiError } from '../../common/errors/api-error';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { MemberListResponse, MemberResponse, UpdateMemberRoleDto } from './dto/member.dto';
import { MembersService } from './members.service';

const USER_ID_PARAM = {
  name: 'userId',
  format: 'uuid',
  description: 'The member’s user id (GET /api/v1/account/members lists them).',
  example: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
} as const;

/** The caller's account's members: everyone reads, owner and admins manage. */
@ApiTags('account')
@RequireDashboardLogin()
@Controller('api/v1/account/members')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Get()
  @Operation({
    id: 'listMembers',
    summary: 'The members of your account and their roles (any role)',
    ok: MemberListResponse,
    errors: ['SERVICE_UNAVAILABLE'],
  })
  async list(@CurrentPrincipal() principal: Principal) {
    return { items: await this.members.list(principal.accountId) };
  }

  @Patch(':userId')
  @RequireRole(...MEMBER_MANAGERS)
  @Operation({
    id: 'updateMemberRole',
    summary: "Change a member's role (owner or admin); role owner transfers ownership",
    description:
      'An admin moves members between developer and viewer; only the owner grants or takes away admin, and transfers ownership (role owner: the previous owner becomes admin). ' +
      "The owner's own role changes only by a transfer. The change applies to the member's next request. NOT_FOUND for a user who is not a member of your account.",
    params: [USER_ID_PARAM],
    ok: MemberResponse,
    errors: [...JSON_BODY_ERRORS, 'ROLE_FORBIDDEN', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  })
  updateRole(
    @CurrentMember() member: MemberActor,
    @Param('userId', new ParseUUIDPipe({ exceptionFactory: memberNotFound })) userId: string,
    @Body() body: UpdateMemberRoleDto,
  ) {
    return this.members.setRole(member, userId, body.role);
  }

  @Delete(':userId')
  @HttpCode(204)
  @RequireRole(...MEMBER_MANAGERS)
  @Operation({
    id: 'removeMember',
    summary: 'Remove a member (owner or admin): their logins end at once',
    description:
      'Their access and refresh tokens stop working with this response; the API keys of the account stay. An admin removes developers and viewers, the owner also admins; the owner cannot be removed. NOT_FOUND for a user who is not a member of your account.',
    params: [USER_ID_PARAM],
    noContent: 'Removed',
    errors: ['INVALID_PARAMS', 'ROLE_FORBIDDEN', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  })
  async remove(
    @CurrentMember() member: MemberActor,
    @Param('userId', new ParseUUIDPipe({ exceptionFactory: memberNotFound })) userId: string,
  ): Promise<void> {
    await this.members.remove(member, userId);
  }
}

function memberNotFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No member with this user id in your account', {
    hint: 'GET /api/v1/account/members lists the members of your account.',
  });
}
