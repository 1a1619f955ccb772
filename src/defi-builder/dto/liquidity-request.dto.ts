import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, ValidateNested } from 'class-validator';
import { ApiRequestExample } from '../../common/openapi/api-request-example.decorator';
import { IsEvmAddress, IsWalletAddress } from '../../common/validation/is-evm-address';
import { IsPermitSignature, PermitBatchDto, SentWith } from './permit.dto';
import { EXAMPLE } from './request-examples';
import { ApprovalIdField } from './approval-id.field';
import { IsAddressAbove, IsUint128String } from './validators';
import { DeadlineField } from './deadline.field';

/** Body of POST /api/v1/defi/liquidity (spec §2.2; design §4: every field but deadline is required). */
@ApiRequestExample({
  token0: EXAMPLE.WETH,
  token1: EXAMPLE.tUSDC,
  amount0: '1000000000000000000',
  amount1: '3000000000',
  tickLower: -887220,
  tickUpper: 887220,
  userAddress: EXAMPLE.wallet,
})
export class LiquidityRequestDto {
  @ApiProperty({
    description: 'currency0 of the pool: the lower address (WETH).',
    example: EXAMPLE.WETH,
  })
  @IsEvmAddress()
  token0: string;

  @ApiProperty({
    description: 'currency1 of the pool: the higher address (tUSDC); must be greater than token0.',
    example: EXAMPLE.tUSDC,
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
    example: EXAMPLE.wallet,
  })
  @IsWalletAddress()
  userAddress: string;

  @ApiPropertyOptional({
    description:
      "The v4 PoolId to add to (design §9). Default: the pair's pool. The pool of a deprecated ComplianceHook version is 400 POOL_DEPRECATED (its positions can only be exited); GET /api/v1/defi/config lists the pools.",
    example: `0x${'ab'.repeat(32)}`,
  })
  @IsOptional()
  @Matches(/^0x[0-9a-fA-F]{64}$/, { message: 'poolId must be 0x followed by 64 hex characters' })
  poolId?: string;

  @DeadlineField('PositionManager')
  deadline?: number;

  @ApiPropertyOptional({
    type: PermitBatchDto,
    description:
      "The `values` of a previous response's permitData, as signed, unchanged: replaces the Permit2 approval transactions to the PositionManager. Only with permitSignature (a permit is signed for one wallet and its Permit2 nonces, so it has no sample value here).",
  })
  @SentWith('permitBatch', 'permitSignature')
  @ValidateNested()
  @Type(() => PermitBatchDto)
  permitBatch?: PermitBatchDto;

  @ApiPropertyOptional({
    description:
      'EIP-712 signature of permitBatch by userAddress (eth_signTypedData_v4 of permitData).',
    example: `0x${'ab'.repeat(65)}`,
  })
  @SentWith('permitSignature', 'permitBatch')
  @IsPermitSignature()
  permitSignature?: string;

  @ApprovalIdField()
  approvalId?: string;
}
