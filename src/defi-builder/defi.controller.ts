import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { JSON_BODY_ERRORS } from '../common/openapi/api-errors.decorator';
import { Operation } from '../common/openapi/operation.decorator';
import { MINT_BUILD_ERRORS, SWAP_BUILD_ERRORS } from './build-errors';
import { BUILD_HEADERS } from './build-headers';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { RequireScope } from '../auth/require-scope.decorator';
import { DefiPipelineService } from './pipeline/defi-pipeline.service';
import { DefiConfigService } from './defi-config.service';
import { BuildQueryDto } from './dto/build-query.dto';
import { DefiConfigResponse } from './dto/defi-config.response';
import { LiquidityRequestDto } from './dto/liquidity-request.dto';
import { SWAP_EXAMPLES, SwapRequestDto } from './dto/swap-request.dto';
import { MintResponseDto, SwapResponseDto } from './dto/build-response.dto';
import { WalletSendCallsDto } from './dto/wallet-send-calls.response';
import { QUOTE_EXAMPLES, QuoteRequestDto } from './dto/quote-request.dto';
import { QuoteResponseDto } from './dto/quote-response.dto';
import { QuoteService } from './quote/quote.service';
import { mintOperation } from './operations/mint.operation';
import { swapOperation } from './operations/swap.operation';

const ERRORS =
  'Errors (envelope): 400 INVALID_PARAMS / INVALID_ADDRESS (validation), 401/403/429 (auth), 403 INSTITUTION_OWNERSHIP_MISMATCH, ' +
  '400 UNSUPPORTED_TOKEN, 412 SESSION_NOT_ACTIVE, 400 BALANCE_INSUFFICIENT, 503 CHAIN_UNAVAILABLE (preflight), 400 BUILD_FAILED, ' +
  '400 SIMULATION_REVERTED (build: the transaction reverts when simulated; with buildOnly=true a warning). ' +
  'userAddress must be a wallet: a protocol or token contract, a v4 action marker or a reserved address is 400 INVALID_PARAMS.';

@ApiTags('defi')
@Controller('api/v1/defi')
export class DefiController {
  constructor(
    private readonly pipeline: DefiPipelineService,
    private readonly configService: DefiConfigService,
    private readonly quotes: QuoteService,
  ) {}

  @Post('swap')
  @HttpCode(200)
  @RequireScope('defi:swap')
  @Operation({
    id: 'swap',
    summary:
      'Build an unsigned Uniswap v4 swap (UniversalRouter): exact input or exact output, native ETH, Permit2 signatures',
    description: `Returns transaction {to, data, value, gas} to sign and broadcast, plus approvals[] to broadcast first when the Permit2 allowance is short (warning ALLOWANCE_INSUFFICIENT), and permitData to sign instead of the Permit2 approval (send it back as permit + permitSignature); approvals marked replaceableByPermit are the ones permitData replaces. calls[] lists approvals[] then transaction as EIP-5792 calls for wallet_sendCalls (or send them one by one, letting the wallet estimate each). tokenIn/tokenOut 0x0000000000000000000000000000000000000000 is native ETH (WRAP_ETH / UNWRAP_WETH around the WETH pool). The swap takes the pair's best route (route.hops): one listed pool, or two through one intermediate token (SWAP_EXACT_IN / SWAP_EXACT_OUT with path keys); 400 NO_ROUTE when none connects the tokens, its hint naming what the input token trades against. A wallet that cannot pay gets 400 BALANCE_INSUFFICIENT (with buildOnly=true: a warning). ${ERRORS}`,
    ok: SwapResponseDto,
    okAlternatives: [WalletSendCallsDto],
    okHeaders: BUILD_HEADERS,
    errors: [...SWAP_BUILD_ERRORS],
  })
  @ApiBody({ type: SwapRequestDto, examples: SWAP_EXAMPLES })
  swap(
    @Body() body: SwapRequestDto,
    @Query() query: BuildQueryDto,
    @CurrentPrincipal() principal?: Principal,
  ) {
    return this.pipeline.build(swapOperation, body, principal, query);
  }

  @Post('quote')
  @HttpCode(200)
  @RequireScope('defi:swap')
  @Operation({
    id: 'quote',
    summary: 'Quote a swap (V4Quoter + pool price in one eth_call); no wallet needed',
    description:
      "amount is the exact input (EXACT_INPUT, default) or the exact output (EXACT_OUTPUT). Errors (envelope): 400 INVALID_PARAMS / INVALID_ADDRESS (validation), 401/403/429 (auth), 400 UNSUPPORTED_TOKEN, 400 NO_ROUTE (no listed pool or two-hop route connects the tokens), 503 CHAIN_UNAVAILABLE, 400 BUILD_FAILED (no route can fill the amount). Every listed pool of the pair and every two-hop route through one token is quoted in one read; the answer's route shows the best.",
    ok: QuoteResponseDto,
    errors: [
      ...JSON_BODY_ERRORS,
      'INVALID_ADDRESS',
      'UNSUPPORTED_TOKEN',
      'NO_ROUTE',
      'BUILD_FAILED',
      'CHAIN_UNAVAILABLE',
    ],
  })
  @ApiBody({ type: QuoteRequestDto, examples: QUOTE_EXAMPLES })
  quote(@Body() body: QuoteRequestDto) {
    return this.quotes.quote(body);
  }

  @Post('liquidity')
  @HttpCode(200)
  @RequireScope('defi:liquidity')
  @Operation({
    id: 'addLiquidity',
    summary:
      'Build an unsigned Uniswap v4 position mint (PositionManager MINT_POSITION + SETTLE_PAIR)',
    description: `Liquidity is computed from amount0/amount1 at the pool's current price; the position NFT goes to userAddress; approvals marked replaceableByPermit are the ones permitData (sent back as permitBatch + permitSignature) replaces. calls[] lists approvals[] then transaction as EIP-5792 calls for wallet_sendCalls (or send them one by one, letting the wallet estimate each). ${ERRORS}`,
    ok: MintResponseDto,
    okAlternatives: [WalletSendCallsDto],
    okHeaders: BUILD_HEADERS,
    errors: [...MINT_BUILD_ERRORS],
  })
  addLiquidity(
    @Body() body: LiquidityRequestDto,
    @Query() query: BuildQueryDto,
    @CurrentPrincipal() principal?: Principal,
  ) {
    return this.pipeline.build(mintOperation, body, principal, query);
  }

  @Get('config')
  @RequireScope('defi:preflight')
  @Operation({
    id: 'getDefiConfig',
    summary:
      'Chain, supported tokens, pool key, contract addresses, deprecated items and builder defaults',
    ok: DefiConfigResponse,
    errors: ['CHAIN_UNAVAILABLE'],
  })
  config() {
    return this.configService.configJson();
  }
}
