import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { RequireScope } from '../auth/require-scope.decorator';
import { DefiPipelineService } from './build/defi-pipeline.service';
import { DefiConfigService } from './defi-config.service';
import { BuildQueryDto } from './dto/build-query.dto';
import { LiquidityRequestDto } from './dto/liquidity-request.dto';
import { SwapRequestDto } from './dto/swap-request.dto';
import { mintOperation } from './operations/mint.operation';
import { swapOperation } from './operations/swap.operation';

const ERRORS =
  'Errors (envelope): 400 INVALID_PARAMS / INVALID_ADDRESS (validation), 401/403/429 (auth), 403 INSTITUTION_OWNERSHIP_MISMATCH, ' +
  '400 UNSUPPORTED_TOKEN, 412 SESSION_NOT_ACTIVE, 503 CHAIN_UNAVAILABLE (preflight), 400 BUILD_FAILED (build).';

@ApiTags('defi')
@Controller('api/v1/defi')
export class DefiController {
  constructor(
    private readonly pipeline: DefiPipelineService,
    private readonly configService: DefiConfigService,
  ) {}

  @Post('swap')
  @HttpCode(200)
  @RequireScope('defi:swap')
  @ApiOperation({
    summary: 'Build an unsigned Uniswap v4 exact-input swap (UniversalRouter V4_SWAP)',
    description: `Returns transaction {to, data, value, gas} to sign and broadcast, plus approvals[] to broadcast first when the Permit2 allowance is short (warning ALLOWANCE_INSUFFICIENT). ${ERRORS}`,
  })
  @ApiOkResponse({
    description: 'Unsigned transaction, warnings, approvals, simulation, quote and minAmountOut.',
  })
  swap(
    @Body() body: SwapRequestDto,
    @Query() query: BuildQueryDto,
    @CurrentPrincipal() principal?: Principal,
  ) {
    return this.pipeline.run(swapOperation, body, {
      buildOnly: query.buildOnly === true,
      principal,
    });
  }

  @Post('liquidity')
  @HttpCode(200)
  @RequireScope('defi:liquidity')
  @ApiOperation({
    summary:
      'Build an unsigned Uniswap v4 position mint (PositionManager MINT_POSITION + SETTLE_PAIR)',
    description: `Liquidity is computed from amount0/amount1 at the pool's current price; the position NFT goes to userAddress. ${ERRORS}`,
  })
  @ApiOkResponse({
    description:
      'Unsigned transaction, liquidity, expected amounts, warnings, approvals, simulation, and expectedTokenId: a PREDICTION of the position NFT id (PositionManager.nextTokenId read in the same batch); another mint landing first takes it, so read the id from the Transfer log of your receipt.',
  })
  addLiquidity(
    @Body() body: LiquidityRequestDto,
    @Query() query: BuildQueryDto,
    @CurrentPrincipal() principal?: Principal,
  ) {
    return this.pipeline.run(mintOperation, body, {
      buildOnly: query.buildOnly === true,
      principal,
    });
  }

  @Get('config')
  @RequireScope('defi:preflight')
  @ApiOperation({
    summary:
      'Chain, supported tokens, pool key, contract addresses, deprecated items and builder defaults',
  })
  config() {
    return this.configService.config();
  }
}
