import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { ApiRequestExample } from '../../common/openapi/api-request-example.decorator';
import { IsEvmAddress, IsWalletAddress } from '../../common/validation/is-evm-address';
import type { TradeType } from '../encoding/swap-calldata';
import { IsPermitSignature, PermitSingleDto, SentWith } from './permit.dto';
import { EXAMPLE } from './request-examples';
import { ApprovalIdField } from './approval-id.field';
import { DeadlineField } from './deadline.field';
import {
  IsDifferentAddressFrom,
  IsUint128String,
  MatchesTokenOrder,
  OnlyWithTradeType,
} from './validators';

export const TRADE_TYPES: readonly TradeType[] = ['EXACT_INPUT', 'EXACT_OUTPUT'];
const ETH_NOTE =
  ' 0x0000000000000000000000000000000000000000 is native ETH (traded as WETH, through the pools that hold WETH).';

/** The spec's swap: 0.1 WETH for tUSDC in the one WETH/tUSDC pool. */
const ONE_POOL_SWAP = {
  tokenIn: EXAMPLE.WETH,
  tokenOut: EXAMPLE.tUSDC,
  amount: '100000000000000000',
  tradeType: 'EXACT_INPUT',
  userAddress: EXAMPLE.wallet,
  slippageBps: 50,
};

/** Body of POST /api/v1/defi/swap (spec §2.1 plus design §4 optional fields). */
@ApiRequestExample(ONE_POOL_SWAP)
export class SwapRequestDto {
  @ApiProperty({
    description: `Token sold: a supported token address (GET /api/v1/defi/config).${ETH_NOTE}`,
    example: EXAMPLE.WETH,
  })
  @IsEvmAddress()
  tokenIn: string;

  @ApiProperty({
    description: `Token bought: a supported token that a listed pool, or two pools through one other token, connect to tokenIn (else 400 NO_ROUTE).${ETH_NOTE}`,
    example: EXAMPLE.tUSDC,
  })
  @IsEvmAddress()
  @IsDifferentAddressFrom('tokenIn')
  tokenOut: string;

  @ApiProperty({
    description:
      'EXACT_INPUT: the exact amount of tokenIn to sell; EXACT_OUTPUT: the exact amount of tokenOut to receive. Decimal integer in smallest units, > 0 and < 2^128.',
    example: '100000000000000000',
  })
  @IsUint128String()
  amount: string;

  @ApiPropertyOptional({
    description:
      'Whether amount is what you sell (EXACT_INPUT) or what you receive (EXACT_OUTPUT).',
    enum: TRADE_TYPES,
    default: 'EXACT_INPUT',
  })
  @IsOptional()
  @IsIn(TRADE_TYPES)
  tradeType?: TradeType;

  @ApiProperty({
    description: 'The wallet that will sign and broadcast; must not be bound to another account.',
    example: EXAMPLE.wallet,
  })
  @IsWalletAddress()
  userAddress: string;

  @ApiPropertyOptional({
    description:
      'Swap direction. Derived from the token order when omitted (WETH -> tUSDC is true); when given it must match.',
    example: true,
  })
  @IsOptional()
  @IsBoolean()
  @MatchesTokenOrder()
  zeroForOne?: boolean;

  @ApiPropertyOptional({
    description:
      'EXACT_INPUT only: the minimum output in smallest units of tokenOut. Overrides slippageBps; "0" disables the protection (at your own risk).',
    example: '295000000',
  })
  @IsOptional()
  @OnlyWithTradeType('EXACT_INPUT')
  @IsUint128String({ allowZero: true })
  amountOutMinimum?: string;

  @ApiPropertyOptional({
    description:
      'EXACT_OUTPUT only: the most tokenIn you will pay. Default: the V4Quoter quote plus slippageBps.',
    example: '101000000000000000',
  })
  @IsOptional()
  @OnlyWithTradeType('EXACT_OUTPUT')
  @IsUint128String()
  amountInMaximum?: string;

  @ApiPropertyOptional({
    description:
      'Slippage tolerance in basis points applied to the V4Quoter quote: minOut = quote * (10000 - bps) / 10000 (EXACT_INPUT), maxIn = quote * (10000 + bps) / 10000 rounded up (EXACT_OUTPUT).',
    default: 50,
    minimum: 0,
    maximum: 5000,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  slippageBps?: number;

  @DeadlineField('router')
  deadline?: number;

  @ApiPropertyOptional({
    type: PermitSingleDto,
    description:
      "The `values` of a previous response's permitData, as signed, unchanged: replaces the Permit2.approve transaction. Only with permitSignature (a permit is signed for one wallet and one Permit2 nonce, so it has no sample value here).",
  })
  @SentWith('permit', 'permitSignature')
  @ValidateNested()
  @Type(() => PermitSingleDto)
  permit?: PermitSingleDto;

  @ApiPropertyOptional({
    description: 'EIP-712 signature of permit by userAddress (eth_signTypedData_v4 of permitData).',
    example: `0x${'ab'.repeat(65)}`,
  })
  @SentWith('permitSignature', 'permit')
  @IsPermitSignature()
  permitSignature?: string;

  @ApprovalIdField()
  approvalId?: string;
}

/** /docs' named examples of a swap: one pool, and two hops (design §9 "Markets"). */
export const SWAP_EXAMPLES = {
  'WETH to tUSDC (one pool)': { value: ONE_POOL_SWAP },
  'tWBTC to tUSDC (two hops, through WETH)': {
    value: {
      tokenIn: EXAMPLE.tWBTC,
      tokenOut: EXAMPLE.tUSDC,
      amount: '1000000',
      userAddress: EXAMPLE.wallet,
      slippageBps: 50,
    },
  },
};
