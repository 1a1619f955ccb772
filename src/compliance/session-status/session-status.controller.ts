import { Controller, Get, Param } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { RequireScope } from '../../auth/require-scope.decorator';
import { SessionStatusParamsDto, SessionStatusResponse } from './dto/session-status.dto';
import { SessionStatusService } from './session-status.service';

@ApiTags('compliance')
@Controller('api/v1/compliance/sessions')
@RequireScope('defi:preflight')
export class SessionStatusController {
  constructor(private readonly sessions: SessionStatusService) {}

  @Get(':address')
  @ApiOperation({
    summary: 'A wallet’s compliance session, read on chain',
    description:
      'ComplianceRegistry.activeUntil at the latest block. Any wallet can be looked up: the registry is public.',
  })
  @ApiOkResponse({ type: SessionStatusResponse })
  @ApiBadRequestResponse({ description: 'INVALID_ADDRESS' })
  @ApiServiceUnavailableResponse({ description: 'CHAIN_UNAVAILABLE: the chain RPC did not answer' })
  status(@Param() params: SessionStatusParamsDto) {
    return this.sessions.status(params.address);
  }
}
