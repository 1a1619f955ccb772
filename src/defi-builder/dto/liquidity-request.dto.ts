import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, ValidateNested } from 'class-validator';
import { IsEvmAddress, IsWalletAddress } from '../../common/validation/is-evm-address';
import { IsPermitSignature, PermitBatchDto, SentWith } from './permit.dto';
import { IsAddressAbove, IsFutureUnixSeconds, IsUint128String } from './validators';

/** Body of POST /api/v1/defi/liquidity (spec §2.2; design §4: every field but deadline is required). */
export class LiquidityRequestDto {
  @ApiProperty({
    description: 'currency0 of the pool: the lower address (WETH).',
    example: '0x77139Fa81c4434893f9D7e033C3e3903C46B820D',
  })
  @IsEvmAddress()
  token0: string;

  @ApiProperty({
    description: 'currency1 of the pool: the higher address (tUSDC); must be greater than token0.',
    example: '0x993706027b3eC9d8b03A962CAaa15C133A52707c',
  })
  @IsEvmAddress()
  @IsAddressAbove('token0')
  token1: string;

  @ApiProperty({
    description: 'Maximum token0 to deposit, smallest units, > 0 and < 2^128 (becomes amount0Max).',
    example: '1000000000000000000',
  })
  @IsUint128String()
  amount0: string;

  @ApiProperty({
    description: 'Maximum token1 to deposit, smallest units, > 0 and < 2^128 (becomes amount1Max).',
    example: '3000000000',
  })
  @IsUint128String()
  amount1: string;

  @ApiProperty({
    description:
      'Lower tick: a multiple of the pool tickSpacing (60), >= MIN_TICK (-887272), < tickUpper. May be negative.',
    example: -887220,
  })
  @IsInt()
  tickLower: number;

  @ApiProperty({
    description: 'Upper tick: a multiple of the pool tickSpacing (60), <= MAX_TICK (887272).',
    example: 887220,
  })
  @IsInt()
  tickUpper: number;

  @ApiProperty({
    description:
      'Wallet that signs, pays and receives the position NFT; must not be bound to another account.',
    example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  @IsWalletAddress()
  userAddress: string;

  @ApiPropertyOptional({
    description:
      'Unix seconds after which the PositionManager rejects the transaction. Default: now + 20 minutes.',
    example: 1900000000,
  })
  @IsOptional()
  @IsFutureUnixSeconds()
  deadline?: number;

  @ApiPropertyOptional({
    type: PermitBatchDto,
    description:
      "The `values` of a previous response's permitData, as signed: replaces the Permit2 approval transactions to the PositionManager (send with permitSignature).",
  })
  @SentWith('permitBatch', 'permitSignature')
  @ValidateNested()
  @Type(() => PermitBatchDto)
  permitBatch?: PermitBatchDto;

  @ApiPropertyOptional({
    description:
      'EIP-712 signature of permitBatch by userAddress (eth_signTypedData_v4 of permitData).',
  })
  @SentWith('permitSignature', 'permitBatch')
  @IsPermitSignature()
  permitSignature?: string;
}
