/**
 * OpenAPI shapes of what the builders return (design §6; issue 11 fields). Documentation only:
 * the services return plain objects of these shapes. Shared parts: build-parts.response.ts.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CALLS_EXAMPLE, CallDto, SessionViewDto, UnsignedTxDto } from './build-parts.response';
import { PermitBatchDto, PermitSingleDto } from './permit.dto';

export class PoolKeyDto {
  @ApiProperty() currency0: string;
  @ApiProperty() currency1: string;
  @ApiProperty() fee: number;
  @ApiProperty() tickSpacing: number;
  @ApiProperty() hooks: string;
}

/** One hop of a route (design §9 "Markets"): a pool, its direction, its quoted amounts. */
export class RouteHopDto {
  @ApiProperty({ description: 'The pool (v4 PoolId; GET /api/v1/defi/config lists the pools).' })
  poolId: string;
  @ApiProperty({ description: 'What the hop pays in: a pool currency (WETH where ETH is paid).' })
  tokenIn: string;
  @ApiProperty({
    description: 'What the hop pays out: a pool currency (WETH where ETH is received).',
  })
  tokenOut: string;
  @ApiProperty({ description: 'The pool fee, hundredths of a bip.', example: 3000 }) fee: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Smallest units of tokenIn, as quoted; null when no route could be quoted (a swap with an explicit limit).',
  })
  amountIn: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Smallest units of tokenOut, as quoted.',
  })
  amountOut: string | null;
}

export class RouteDto {
  @ApiProperty({
    type: [RouteHopDto],
    description:
      'In trade order: one hop through a listed pool, or two through one intermediate token. The best route of the pair: the largest output (EXACT_INPUT) or the smallest input (EXACT_OUTPUT).',
  })
  hops: RouteHopDto[];
}

export class WarningDto {
  @ApiProperty({
    enum: [
      'ALLOWANCE_INSUFFICIENT',
      'BALANCE_INSUFFICIENT',
      'SESSION_EXPIRES_BEFORE_DEADLINE',
      'SIMULATION_REVERTED',
    ],
  })
  code: string;
  @ApiProperty() message: string;
  @ApiProperty() hint: string;
}

export class ApprovalDto {
  @ApiProperty() token: string;
  @ApiProperty({ example: 'WETH' }) symbol: string;
  @ApiProperty({ description: 'Permit2 (ERC-20 step) or the router (Permit2 step).' })
  spender: string;
  @ApiProperty({ enum: ['Permit2', 'UniversalRouter', 'PositionManager'] }) spenderName: string;
  @ApiProperty({ enum: ['erc20', 'permit2'] }) kind: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: UnsignedTxDto }) transaction: UnsignedTxDto;
  @ApiProperty({
    description:
      'true on a Permit2 approval (kind permit2) when the response offers permitData: signing permitData replaces this transaction. Always false on the ERC-20 -> Permit2 approval, which stays a transaction.',
  })
  replaceableByPermit: boolean;
}

export class SimulationDto {
  @ApiProperty({ type: Boolean, nullable: true, description: 'null: not run (see skipped).' })
  ok: boolean | null;
  @ApiPropertyOptional() revertCode?: string;
  @ApiPropertyOptional() revertReason?: string;
  @ApiPropertyOptional({
    enum: ['SESSION_NOT_ACTIVE', 'ALLOWANCE_INSUFFICIENT', 'BALANCE_INSUFFICIENT'],
  })
  skipped?: string;
}

export class PermitDomainDto {
  @ApiProperty({ enum: ['Permit2'] }) name: string;
  @ApiProperty({ type: 'integer', example: 84532 }) chainId: number;
  @ApiProperty({
    description: 'Permit2 on this chain',
    example: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
  })
  verifyingContract: string;
}

export class TypedDataFieldDto {
  @ApiProperty({ example: 'details' }) name: string;
  @ApiProperty({ example: 'PermitDetails' }) type: string;
}

class PermitSingleTypesDto {
  @ApiProperty({ type: [TypedDataFieldDto] }) PermitSingle: TypedDataFieldDto[];
  @ApiProperty({ type: [TypedDataFieldDto] }) PermitDetails: TypedDataFieldDto[];
}

class PermitBatchTypesDto {
  @ApiProperty({ type: [TypedDataFieldDto] }) PermitBatch: TypedDataFieldDto[];
  @ApiProperty({ type: [TypedDataFieldDto] }) PermitDetails: TypedDataFieldDto[];
}

const SIGN_PERMIT =
  'Sign with eth_signTypedData_v4 (ethers: signTypedData(domain, types, values); viem: signTypedData({ domain, types, primaryType, message: values })), then send values back unchanged';

/** Swap: a PermitSingle for the UniversalRouter; `values` is the request's `permit` as is. */
export class SwapPermitDataDto {
  @ApiProperty({ type: PermitDomainDto, description: 'EIP-712 domain: Permit2 on this chain.' })
  domain: PermitDomainDto;
  @ApiProperty({ type: PermitSingleTypesDto, description: 'EIP-712 types (no EIP712Domain).' })
  types: PermitSingleTypesDto;
  @ApiProperty({ enum: ['PermitSingle'] }) primaryType: 'PermitSingle';
  @ApiProperty({
    type: PermitSingleDto,
    description: `The message. ${SIGN_PERMIT} as permit, with permitSignature.`,
  })
  values: PermitSingleDto;
}

/** Mint: a PermitBatch for the PositionManager; `values` is the request's `permitBatch` as is. */
export class MintPermitDataDto {
  @ApiProperty({ type: PermitDomainDto, description: 'EIP-712 domain: Permit2 on this chain.' })
  domain: PermitDomainDto;
  @ApiProperty({ type: PermitBatchTypesDto, description: 'EIP-712 types (no EIP712Domain).' })
  types: PermitBatchTypesDto;
  @ApiProperty({ enum: ['PermitBatch'] }) primaryType: 'PermitBatch';
  @ApiProperty({
    type: PermitBatchDto,
    description: `The message. ${SIGN_PERMIT} as permitBatch, with permitSignature.`,
  })
  values: PermitBatchDto;
}

const PERMIT_DATA_DESCRIPTION =
  'Present when the Permit2 allowance of the spender is short and the request carried no signed permit: sign it instead of sending the approvals marked replaceableByPermit (the ERC-20 -> Permit2 approvals stay transactions).';

export class BuildResponseDto {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ example: 84532 }) chainId: number;
  @ApiProperty({ type: UnsignedTxDto }) transaction: UnsignedTxDto;
  @ApiProperty({ enum: ['eth_estimateGas', 'calibrated'] }) gasSource: string;
  @ApiProperty() walletBound: boolean;
  @ApiProperty({ type: SessionViewDto }) session: SessionViewDto;
  @ApiProperty({ type: [WarningDto] }) warnings: WarningDto[];
  @ApiProperty({
    type: [ApprovalDto],
    description:
      'Broadcast these first, in order (same fields as preflight nextActions); or, when permitData is present, sign it instead of those marked replaceableByPermit.',
  })
  approvals: ApprovalDto[];
  @ApiProperty({
    type: [CallDto],
    description:
      'The whole sequence without a permit: approvals[] in order, then transaction, as EIP-5792 calls for wallet_sendCalls (atomic on a smart wallet; chainId above). Always present, also with buildOnly or without a session (then the last call reverts until a session is active). A plain wallet may send them one by one, each after the previous is mined, estimating the gas of each (calls carry none; transaction.gas was planned before the approvals). When the request carried a signed permit, the Permit2 approvals are absent and the transaction embeds the permit.',
    example: CALLS_EXAMPLE,
  })
  calls: CallDto[];
  @ApiProperty({ type: SimulationDto }) simulation: SimulationDto;
  @ApiProperty({ type: PoolKeyDto }) poolKey: PoolKeyDto;
  @ApiProperty({ description: 'Unix seconds (chain clock).' }) deadline: number;
}

export class SwapResponseDto extends BuildResponseDto {
  @ApiPropertyOptional({ type: SwapPermitDataDto, description: PERMIT_DATA_DESCRIPTION })
  permitData?: SwapPermitDataDto;
  @ApiProperty({ enum: ['EXACT_INPUT', 'EXACT_OUTPUT'] }) tradeType: string;
  @ApiProperty({ description: 'As sent (the zero address for native ETH).' }) tokenIn: string;
  @ApiProperty() tokenOut: string;
  @ApiProperty() zeroForOne: boolean;
  @ApiPropertyOptional({ description: 'EXACT_INPUT: the exact input.' }) amountIn?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'EXACT_INPUT: V4Quoter output.',
  })
  quotedAmountOut?: string | null;
  @ApiPropertyOptional({ description: 'EXACT_INPUT: the least the swap pays out.' })
  minAmountOut?: string;
  @ApiPropertyOptional({ description: 'EXACT_OUTPUT: the exact output.' }) amountOut?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'EXACT_OUTPUT: V4Quoter input.',
  })
  quotedAmountIn?: string | null;
  @ApiPropertyOptional({
    description: 'EXACT_OUTPUT: the most the swap takes (allowance, balance and value use it).',
  })
  maxAmountIn?: string;
  @ApiProperty({ type: Number, nullable: true, description: 'null when the caller set the limit.' })
  slippageBps: number | null;
  @ApiProperty({
    type: RouteDto,
    description:
      'The route the swap takes; poolKey and zeroForOne are its first hop. A pair with no route is 400 NO_ROUTE.',
  })
  route: RouteDto;
}

export class MintResponseDto extends BuildResponseDto {
  @ApiPropertyOptional({ type: MintPermitDataDto, description: PERMIT_DATA_DESCRIPTION })
  permitData?: MintPermitDataDto;
  @ApiProperty({ type: 'integer', example: -600 }) tickLower: number;
  @ApiProperty({ type: 'integer', example: 600 }) tickUpper: number;
  @ApiProperty({ description: 'Liquidity computed from the amounts at the current price' })
  liquidity: string;
  @ApiProperty({ description: 'The most the mint may take of currency0 (SETTLE_PAIR bound)' })
  amount0Max: string;
  @ApiProperty({ description: 'The most the mint may take of currency1' }) amount1Max: string;
  @ApiProperty({
    description: 'What the mint takes at the build-time price (the rest stays in the wallet)',
  })
  expectedAmount0: string;
  @ApiProperty() expectedAmount1: string;
  @ApiProperty({ description: 'Pool price at build time (Q64.96)' }) sqrtPriceX96: string;
  @ApiProperty({ type: 'integer' }) currentTick: number;
  @ApiProperty({ description: 'Who receives the position NFT' }) owner: string;
  @ApiProperty({
    description:
      'A PREDICTION of the position NFT id (PositionManager.nextTokenId read in the same batch): another mint landing first takes it, so read the id from the Transfer log of your receipt.',
    example: '42',
  })
  expectedTokenId: string;
}
