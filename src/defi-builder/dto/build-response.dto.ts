/**
 * OpenAPI shapes of what the builders return (design §6; issue 11 fields). Documentation only:
 * the services return plain objects of these shapes. Shared parts: build-parts.response.ts.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SessionViewDto, UnsignedTxDto } from './build-parts.response';

export class PoolKeyDto {
  @ApiProperty() currency0: string;
  @ApiProperty() currency1: string;
  @ApiProperty() fee: number;
  @ApiProperty() tickSpacing: number;
  @ApiProperty() hooks: string;
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

export class PermitDataDto {
  @ApiProperty({ description: 'EIP-712 domain: Permit2 on this chain.' })
  domain: Record<string, unknown>;
  @ApiProperty({ description: 'EIP-712 types (PermitSingle or PermitBatch, and PermitDetails).' })
  types: Record<string, unknown>;
  @ApiProperty({
    description:
      'The message to sign with eth_signTypedData_v4, then send back as permit (swap) or permitBatch (mint) with permitSignature. details: {token, amount, expiration, nonce} (one or a list), spender, sigDeadline.',
  })
  values: Record<string, unknown>;
}

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
    description: 'Broadcast these first, in order (same fields as preflight nextActions).',
  })
  approvals: ApprovalDto[];
  @ApiPropertyOptional({
    type: PermitDataDto,
    description:
      'Present when the Permit2 allowance of the spender is short: sign it instead of broadcasting the Permit2 approval (the ERC-20 -> Permit2 approval stays a transaction).',
  })
  permitData?: PermitDataDto;
  @ApiProperty({ type: SimulationDto }) simulation: SimulationDto;
  @ApiProperty({ type: PoolKeyDto }) poolKey: PoolKeyDto;
  @ApiProperty({ description: 'Unix seconds (chain clock).' }) deadline: number;
}

export class SwapResponseDto extends BuildResponseDto {
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
}

export class MintResponseDto extends BuildResponseDto {
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
