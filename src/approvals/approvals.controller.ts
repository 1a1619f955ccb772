import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentMember, MemberActor } from '../auth/member-actor';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { AnyRole } from '../auth/require-role.decorator';
import { RequireDashboardLogin, RequireScope } from '../auth/require-scope.decorator';
import { JSON_BODY_ERRORS } from '../common/openapi/api-errors.decorator';
import { Operation } from '../common/openapi/operation.decorator';
import { ApprovalsService } from './approvals.service';
import {
  ApprovalIdParamDto,
  ApproveDto,
  ListApprovalsQueryDto,
  RejectDto,
} from './dto/approval-requests.dto';
import { ApprovalListResponse, ApprovalResponse } from './dto/approval.response';

const DECIDE_ERRORS = [
  ...JSON_BODY_ERRORS,
  'NOT_FOUND',
  'APPROVAL_SELF',
  'ROLE_FORBIDDEN',
  'APPROVAL_CLOSED',
  'APPROVAL_EXPIRED',
] as const;

/** Four eyes (issue 55): approval requests, read by members and keys, decided by members. */
@ApiTags('approvals')
@Controller('api/v1/approvals')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Get()
  @RequireScope('approvals:read')
  @Operation({
    id: 'listApprovals',
    summary: "Your account's approval requests, newest first",
    description:
      'Each request is a build above a threshold of the policy’s trading.approvals: what it trades, who asked, the votes so far and who may still approve. Any dashboard user, or an API key with `approvals:read` (a backend polls here, then sends its build again with approvalId).',
    ok: ApprovalListResponse,
    errors: ['INVALID_PARAMS'],
  })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListApprovalsQueryDto) {
    return this.approvals.list(principal.accountId, query);
  }

  @Get(':id')
  @RequireScope('approvals:read')
  @Operation({
    id: 'getApproval',
    summary: 'One approval request: the trade, who asked, the votes, its status',
    ok: ApprovalResponse,
    errors: ['INVALID_PARAMS', 'NOT_FOUND'],
  })
  get(@CurrentPrincipal() principal: Principal, @Param() { id }: ApprovalIdParamDto) {
    return this.approvals.get(principal.accountId, id);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @RequireDashboardLogin()
  @AnyRole()
  @Operation({
    id: 'approveApproval',
    summary: 'Approve a pending request (members of an approving role; not the requester)',
    description:
      'The policy’s trading.approvals.roles decide who may (403 ROLE_FORBIDDEN otherwise); the member who built, or who created the API key that built, gets 403 APPROVAL_SELF. A member with two-factor sign-in sends the current TOTP code as `code` (401 MFA_REQUIRED / MFA_INVALID; each code once). The approval that reaches the quorum moves the request to approved, once, even when members approve at the same moment on several replicas. Audited; webhook approval.approved (data.final: true for the one that reached the quorum). API keys cannot approve.',
    ok: ApprovalResponse,
    errors: [...DECIDE_ERRORS, 'MFA_REQUIRED', 'MFA_INVALID'],
  })
  approve(
    @CurrentMember() member: MemberActor,
    @Param() { id }: ApprovalIdParamDto,
    @Body() body: ApproveDto,
  ) {
    return this.approvals.approve(member, id, body.code);
  }

  @Post(':id/reject')
  @HttpCode(200)
  @RequireDashboardLogin()
  @AnyRole()
  @Operation({
    id: 'rejectApproval',
    summary: 'Reject a pending request: one rejection ends it',
    description:
      'Same members as approve (not the requester). The build named with this approvalId then answers 403 APPROVAL_REJECTED. Audited; webhook approval.rejected with the reason.',
    ok: ApprovalResponse,
    errors: [...DECIDE_ERRORS],
  })
  reject(
    @CurrentMember() member: MemberActor,
    @Param() { id }: ApprovalIdParamDto,
    @Body() body: RejectDto,
  ) {
    return this.approvals.reject(member, id, body.reason);
  }
}
