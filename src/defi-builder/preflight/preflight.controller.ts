import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireScope } from '../../auth/require-scope.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { PreflightParamsDto } from '../dto/preflight-params.dto';
import { PreflightQueryDto } from '../dto/preflight-query.dto';
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
      'Balances and allowances of every token of the market (or those ?tokens= names), all in one batched eth_call. nextActions[] holds ready unsigned approval transactions and how to activate a session. A wallet the sanctions oracle lists answers 200 with session.sanctioned true and active false (read in the same call, not after the screening watcher has revoked its session), and no next action: every build, relay and activation refuses it with 403 WALLET_SANCTIONED.',
    ok: PreflightResponseDto,
    errors: [
      'INVALID_PARAMS',
      'INVALID_ADDRESS',
      'INSTITUTION_OWNERSHIP_MISMATCH',
      'UNSUPPORTED_TOKEN',
      'CHAIN_UNAVAILABLE',
    ],
  })
  preflight(
    @Param() params: PreflightParamsDto,
    @Query() query: PreflightQueryDto,
    @CurrentPrincipal() principal?: Principal,
  ) {
    return this.walletStatus.status(params.address, principal, query.tokens);
  }
}
