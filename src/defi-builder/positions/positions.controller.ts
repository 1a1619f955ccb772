import { Operation } from '../../common/openapi/operation.decorator';
import { POSITION_ENTRY_ERRORS, POSITION_EXIT_ERRORS, POSITION_READ_ERRORS } from '../build-errors';
import { BUILD_HEADERS } from '../build-headers';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireScope } from '../../auth/require-scope.decorator';
import { DefiPipelineService } from '../pipeline/defi-pipeline.service';
import { BuildQueryDto } from '../dto/build-query.dto';
import { collectFeesOperation } from '../operations/collect-fees.operation';
import { decreaseLiquidityOperation } from '../operations/decrease-liquidity.operation';
import { increaseLiquidityOperation } from '../operations/increase-liquidity.operation';
import {
  CollectFeesDto,
  DecreaseLiquidityDto,
  IncreaseLiquidityDto,
  PositionsQueryDto,
  TokenIdParamDto,
} from './dto/position-requests.dto';
import {
  CollectFeesResponseDto,
  DecreaseLiquidityResponseDto,
  IncreaseLiquidityResponseDto,
  PositionResponseDto,
  PositionsResponseDto,
} from './dto/position-responses.dto';
import { PositionsService } from './positions.service';
import { WalletSendCallsDto } from '../dto/wallet-send-calls.response';

const ERRORS =
  'Errors (envelope): 400 INVALID_PARAMS / INVALID_ADDRESS (validation), 401/403/429 (auth), ' +
  '403 INSTITUTION_OWNERSHIP_MISMATCH, 404 POSITION_NOT_FOUND (unknown or burned tokenId), ' +
  '403 POSITION_NOT_OWNED (userAddress is not the owner; the hint names the owner), 503 CHAIN_UNAVAILABLE (preflight), 400 BUILD_FAILED (build, with `field`), ' +
  '400 SIMULATION_REVERTED (build: the transaction reverts when simulated; with buildOnly=true on increase, a warning). ' +
  'Payout addresses (userAddress, recipient) must be wallets: a protocol or token contract, a v4 action marker or a reserved address is 400 INVALID_PARAMS.';

@ApiTags('positions')
@Controller('api/v1/defi')
export class PositionsController {
  constructor(
    private readonly positions: PositionsService,
    private readonly pipeline: DefiPipelineService,
  ) {}

  @Get('positions')
  @RequireScope('defi:preflight')
  @Operation({
    id: 'listPositions',
    summary: "A wallet's positions in the compliance pools",
    description:
      'Found from PositionManager Transfer logs (paged eth_getLogs), confirmed in one batched read. Errors: 400 INVALID_ADDRESS, 403 INSTITUTION_OWNERSHIP_MISMATCH, 503 CHAIN_UNAVAILABLE.',
    ok: PositionsResponseDto,
    errors: [...POSITION_READ_ERRORS],
  })
  list(@Query() query: PositionsQueryDto, @CurrentPrincipal() principal?: Principal) {
    return this.positions.list(query.owner, principal);
  }

  @Get('positions/:tokenId')
  @RequireScope('defi:preflight')
  @Operation({
    id: 'getPosition',
    summary:
      'One position: owner, range, liquidity, amounts at the current price, uncollected fees',
    description:
      'Errors: 400 INVALID_PARAMS, 404 POSITION_NOT_FOUND (phase preflight: never minted, burned, or another pool), 403 INSTITUTION_OWNERSHIP_MISMATCH, 503 CHAIN_UNAVAILABLE.',
    ok: PositionResponseDto,
    errors: [...POSITION_READ_ERRORS],
  })
  one(@Param() params: TokenIdParamDto, @CurrentPrincipal() principal?: Principal) {
    return this.positions.one(params.tokenId, principal);
  }

  @Post('liquidity/increase')
  @HttpCode(200)
  @RequireScope('defi:liquidity')
  @Operation({
    id: 'increaseLiquidity',
    summary: 'Build an unsigned increase of a position (INCREASE_LIQUIDITY + CLOSE_CURRENCY x2)',
    description: `Liquidity from amount0/amount1 at the current price; needs an active session like a mint (412 SESSION_NOT_ACTIVE unless buildOnly=true). A position in the pool of a deprecated hook version is 400 POOL_DEPRECATED (the hint names the current pool): exit it instead. calls[] lists approvals[] then transaction as EIP-5792 calls for wallet_sendCalls (or send them one by one, letting the wallet estimate each). ${ERRORS}`,
    ok: IncreaseLiquidityResponseDto,
    okAlternatives: [WalletSendCallsDto],
    okHeaders: BUILD_HEADERS,
    errors: [...POSITION_ENTRY_ERRORS],
  })
  increase(
    @Body() body: IncreaseLiquidityDto,
    @Query() query: BuildQueryDto,
    @CurrentPrincipal() principal?: Principal,
  ) {
    return this.pipeline.build(increaseLiquidityOperation, body, principal, query);
  }

  @Post('liquidity/decrease')
  @HttpCode(200)
  @RequireScope('defi:liquidity')
  @Operation({
    id: 'decreaseLiquidity',
    summary: 'Build an unsigned decrease (DECREASE_LIQUIDITY or BURN_POSITION + TAKE_PAIR)',
    description: `An exit: never needs a compliance session (never 412). amount0Min/amount1Min from the current price less slippageBps; burn only with the whole liquidity. calls[] lists approvals[] then transaction as EIP-5792 calls for wallet_sendCalls (or send them one by one, letting the wallet estimate each). ${ERRORS}`,
    ok: DecreaseLiquidityResponseDto,
    okAlternatives: [WalletSendCallsDto],
    okHeaders: BUILD_HEADERS,
    errors: [...POSITION_EXIT_ERRORS],
  })
  decrease(
    @Body() body: DecreaseLiquidityDto,
    @Query() query: BuildQueryDto,
    @CurrentPrincipal() principal?: Principal,
  ) {
    // An exit never needs a session: buildOnly is taken, and changes nothing.
    return this.pipeline.build(decreaseLiquidityOperation, body, principal, {
      callsFormat: query.callsFormat,
    });
  }

  @Post('liquidity/collect')
  @HttpCode(200)
  @RequireScope('defi:liquidity')
  @Operation({
    id: 'collectFees',
    summary: 'Build an unsigned fee collection (DECREASE_LIQUIDITY of 0 + TAKE_PAIR)',
    description: `An exit: never needs a compliance session (never 412). Fees go to recipient (default userAddress). calls[] lists approvals[] then transaction as EIP-5792 calls for wallet_sendCalls (or send them one by one, letting the wallet estimate each). ${ERRORS}`,
    ok: CollectFeesResponseDto,
    okAlternatives: [WalletSendCallsDto],
    okHeaders: BUILD_HEADERS,
    errors: [...POSITION_EXIT_ERRORS],
  })
  collect(
    @Body() body: CollectFeesDto,
    @Query() query: BuildQueryDto,
    @CurrentPrincipal() principal?: Principal,
  ) {
    // An exit never needs a session: buildOnly is taken, and changes nothing.
    return this.pipeline.build(collectFeesOperation, body, principal, {
      callsFormat: query.callsFormat,
    });
  }
}
