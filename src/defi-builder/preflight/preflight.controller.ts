import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireScope } from '../../auth/require-scope.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { PreflightParamsDto } from '../dto/preflight-params.dto';
import { PreflightResponseDto } from '../dto/preflight.response';
import { WalletStatusService } from './wallet-status.service';

/** Spec §4 lists the unversioned path; design §4 serves every endpoint under /api/v1 as well. */
@ApiTags('defi')
@Controller(['defi', 'api/v1/defi'])
export class PreflightController {
  constructor(private readonly walletStatus: WalletStatusService) {}

  @Get('preflight/:address')
  @RequireScope('defi:preflight')
  @Operation({
    id: 'preflight',
    summary:
      'Session, balances and Permit2 allowances of a wallet in one chain read, with the next actions to take',
    description:
      'nextActions[] holds ready unsigned approval transactions and how to activate a session.',
    ok: PreflightResponseDto,
    errors: ['INVALID_ADDRESS', 'INSTITUTION_OWNERSHIP_MISMATCH', 'CHAIN_UNAVAILABLE'],
  })
  preflight(@Param() params: PreflightParamsDto, @CurrentPrincipal() principal?: Principal) {
    return this.walletStatus.status(params.address, principal);
  }
}
