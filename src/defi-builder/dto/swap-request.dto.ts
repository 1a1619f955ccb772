import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsEvmAddress, IsWalletAddress } from '../../common/validation/is-evm-address';
import {
  IsDifferentAddressFrom,
  IsFutureUnixSeconds,
  IsUint128String,
  MatchesTokenOrder,
} from './validators';

const ADDRESS_EXAMPLE = '0x77139Fa81c4434893f9D7e033C3e3903C46B820D';

/** Body of POST /api/v1/defi/swap (spec §2.1 plus design §4 optional fields). */
export class SwapRequestDto {
  @ApiProperty({
    description: 'Token sold: a supported token address (GET /api/v1/defi/config).',
    example: ADDRESS_EXAMPLE,
  })
  @IsEvmAddress()
  tokenIn: string;

  @ApiProperty({
    description: 'Token bought: the other token of the pool.',
    example: '0x993706027b3eC9d8b03A962CAaa15C133A52707c',
  })
  @IsEvmAddress()
  @IsDifferentAddressFrom('tokenIn')
  tokenOut: string;

  @ApiProperty({
    description:
      'Exact input amount, decimal integer in the smallest unit of tokenIn (wei for WETH), > 0 and < 2^128.',
    example: '100000000000000000',
  })
  @IsUint128String()
  amount: string;

  @ApiProperty({
    description: 'The wallet that will sign and broadcast; must not be bound to another account.',
    example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  @IsWalletAddress()
  userAddress: string;

  @ApiPropertyOptional({
    description:
      'Swap direction. Derived from the token order when omitted (WETH -> tUSDC is true); when given it must match.',
  })
  @IsOptional()
  @IsBoolean()
  @MatchesTokenOrder()
  zeroForOne?: boolean;

  @ApiPropertyOptional({
    description:
      'Minimum output in smallest units of tokenOut. Overrides slippageBps; "0" disables the protection (at your own risk).',
    example: '295000000',
  })
  @IsOptional()
  @IsUint128String({ allowZero: true })
  amountOutMinimum?: string;

  @ApiPropertyOptional({
    description:
      'Slippage tolerance in basis points applied to the V4Quoter quote: minOut = quote * (10000 - bps) / 10000.',
    default: 50,
    minimum: 0,
    maximum: 5000,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  slippageBps?: number;

  @ApiPropertyOptional({
    description:
      'Unix seconds after which the router rejects the transaction. Default: now + 20 minutes.',
    example: 1900000000,
  })
  @IsOptional()
  @IsFutureUnixSeconds()
  deadline?: number;
}
