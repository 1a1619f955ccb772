import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/public.decorator';
import { NoStore } from '../../common/http/no-store.decorator';
import { ReqMeta, RequestMeta } from '../../common/http/request-meta';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import {
  AcceptedInvitationResponse,
  AcceptInvitationDto,
  InvitationPreviewResponse,
  InvitationTokenDto,
} from './dto/invitation.dto';
import { InvitationPreviewService } from './invitation-preview.service';
import { InvitationsService } from './invitations.service';

/** Served at /auth/invitations/accept and /api/v1/auth/invitations/accept, like login. */
@ApiTags('auth')
@NoStore()
@Public()
@Controller(['auth/invitations', 'api/v1/auth/invitations'])
export class AcceptInvitationController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly previews: InvitationPreviewService,
  ) {}

  @Post('preview')
  @HttpCode(200)
  @Operation({
    id: 'previewInvitation',
    summary: 'What an invitation offers: the account, the invited email and the role',
    description:
      "For the page where the invitee chooses a password; changes nothing and spends nothing. Only the token's holder learns it (the token was mailed to that email). NOT_FOUND for an unknown, expired, revoked or already used token, which counts toward the failed-login limit of the client IP; at most 10 attempts a minute per token, shared with acceptance (RATE_LIMIT_EXCEEDED with retryAfter).",
    ok: InvitationPreviewResponse,
    errors: [...JSON_BODY_ERRORS, 'NOT_FOUND', 'RATE_LIMIT_EXCEEDED'],
  })
  preview(@Body() body: InvitationTokenDto, @ReqMeta() meta: RequestMeta) {
    return this.previews.preview(body.token, meta);
  }

  @Post('accept')
  @Operation({
    id: 'acceptInvitation',
    summary: 'Accept an invitation: creates your login in the inviting account, with its role',
    description:
      'Then sign in with POST /auth/login. The answer is the same whether or not the invited email already had a login (an email belongs to one account: one with a login elsewhere gets nothing new). NOT_FOUND for an unknown, expired, revoked or already used token; INVALID_PARAMS when the password is shorter than 12 characters. Every attempt counts toward the failed-login limit of the client IP, and at most 10 attempts a minute per token (RATE_LIMIT_EXCEEDED with retryAfter).',
    created: AcceptedInvitationResponse,
    errors: [...JSON_BODY_ERRORS, 'NOT_FOUND', 'RATE_LIMIT_EXCEEDED', 'SERVICE_UNAVAILABLE'],
  })
  accept(@Body() body: AcceptInvitationDto, @ReqMeta() meta: RequestMeta) {
    return this.invitations.accept(body.token, body.password, meta);
  }
}
