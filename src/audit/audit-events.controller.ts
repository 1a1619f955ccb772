import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { RequireScope } from '../auth/require-scope.decorator';
import { Operation } from '../common/openapi/operation.decorator';
import { AuditEventsService } from './audit-events.service';
import { AuditEventListResponse } from './dto/audit-event.response';
import { ListAuditEventsQueryDto } from './dto/list-audit-events-query.dto';

@ApiTags('audit')
@Controller('api/v1/audit-events')
export class AuditEventsController {
  constructor(private readonly events: AuditEventsService) {}

  @Get()
  @RequireScope('audit:read')
  @Operation({
    id: 'listAuditEvents',
    summary: "Your account's audit trail: who changed what, from where, newest first",
    description:
      'Every security-relevant change (sign-ins, keys, members, MFA, wallets, sessions, webhooks, operator plan changes) with its actor, target, client IP, user agent and request id. Any dashboard user, or an API key with `audit:read` (for a SIEM). Pass limit (1-200, default 50); when nextCursor is not null, pass it as cursor for the next page. To poll for new events instead, pass after=<the id of the last event you received>: the events written since, oldest first. Every filter and both cursors are index range scans: flat as history grows (bench/README.md). Kept AUDIT_RETENTION_DAYS (default 400).',
    ok: AuditEventListResponse,
    errors: ['INVALID_PARAMS', 'QUOTA_EXCEEDED', 'SERVICE_UNAVAILABLE'],
  })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListAuditEventsQueryDto) {
    return this.events.listForAccount(principal.accountId, query);
  }
}
