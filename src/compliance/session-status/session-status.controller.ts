import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../auth/require-scope.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { SessionStatusParamsDto, SessionStatusResponse } from './dto/session-status.dto';
import { SessionStatusService } from './session-status.service';

@ApiTags('compliance')
@Controller('api/v1/compliance/sessions')
@RequireScope('defi:preflight')
export class SessionStatusController {
  constructor(private readonly sessions: SessionStatusService) {}

  @Get(':address')
  @Operation({
    id: 'status',
    summary: 'A wallet’s compliance session, read on chain',
    description:
      'ComplianceRegistry.activeUntil and the sanctions oracle, read at the latest block in one call: a listed wallet answers active false and sanctioned true at once. Any wallet can be looked up: the registry and the oracle are public.',
    ok: SessionStatusResponse,
    errors: ['INVALID_ADDRESS', 'CHAIN_UNAVAILABLE'],
  })
  status(@Param() params: SessionStatusParamsDto) {
    return this.sessions.status(params.address);
  }
}
