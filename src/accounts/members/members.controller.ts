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
import {
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireRole } from '../../auth/require-role.decorator';
import { RequireDashboardLogin } from '../../auth/require-scope.decorator';
import { MEMBER_MANAGERS } from '../../auth/roles';
import { ApiError } from '../../common/errors/api-error';
import { ReqMeta, RequestMeta } from '../../common/http/request-meta';
import { ApiErrors, JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { MemberListResponse, MemberResponse, UpdateMemberRoleDto } from './dto/member.dto';
import { memberActor } from './member-actor';
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
  @ApiOperation({
    operationId: 'listMembers',
    summary: 'The members of your account and their roles (any role)',
  })
  @ApiOkResponse({ type: MemberListResponse })
  @ApiErrors('SERVICE_UNAVAILABLE')
  async list(@CurrentPrincipal() principal: Principal) {
    return { items: await this.members.list(principal.accountId) };
  }

  @Patch(':userId')
  @RequireRole(...MEMBER_MANAGERS)
  @ApiOperation({
    operationId: 'updateMemberRole',
    summary: "Change a member's role (owner or admin); role owner transfers ownership",
    description:
      'An admin moves members between developer and viewer; only the owner grants or takes away admin, and transfers ownership (role owner: the previous owner becomes admin). ' +
      "The owner's own role changes only by a transfer. The change applies to the member's next request. NOT_FOUND for a user who is not a member of your account.",
  })
  @ApiParam(USER_ID_PARAM)
  @ApiOkResponse({ type: MemberResponse })
  @ApiErrors(...JSON_BODY_ERRORS, 'ROLE_FORBIDDEN', 'NOT_FOUND', 'SERVICE_UNAVAILABLE')
  updateRole(
    @CurrentPrincipal() principal: Principal,
    @ReqMeta() meta: RequestMeta,
    @Param('userId', new ParseUUIDPipe({ exceptionFactory: memberNotFound })) userId: string,
    @Body() body: UpdateMemberRoleDto,
  ) {
    return this.members.setRole(memberActor(principal, meta), userId, body.role);
  }

  @Delete(':userId')
  @HttpCode(204)
  @RequireRole(...MEMBER_MANAGERS)
  @ApiOperation({
    operationId: 'removeMember',
    summary: 'Remove a member (owner or admin): their logins end at once',
    description:
      'Their access and refresh tokens stop working with this response; the API keys of the account stay. An admin removes developers and viewers, the owner also admins; the owner cannot be removed. NOT_FOUND for a user who is not a member of your account.',
  })
  @ApiParam(USER_ID_PARAM)
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors('INVALID_PARAMS', 'ROLE_FORBIDDEN', 'NOT_FOUND', 'SERVICE_UNAVAILABLE')
  async remove(
    @CurrentPrincipal() principal: Principal,
    @ReqMeta() meta: RequestMeta,
    @Param('userId', new ParseUUIDPipe({ exceptionFactory: memberNotFound })) userId: string,
  ): Promise<void> {
    await this.members.remove(memberActor(principal, meta), userId);
  }
}

function memberNotFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No member with this user id in your account', {
    hint: 'GET /api/v1/account/members lists the members of your account.',
  });
}
