/** OpenAPI classes of the position endpoints' success responses (shapes: ../position-responses.ts). */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BuildResponseDto, PoolKeyDto } from '../../dto/build-response.dto';

class TokenAmountsDto {
  @ApiProperty({ description: 'token0 of the pool (WETH in the default pool), smallest units' })
  amount0: string;
  @ApiProperty({ description: 'token1 of the pool (tUSDC in the default pool), smallest units' })
  amount1: string;
}

export class PositionDto {
  @ApiProperty({ example: '42' }) tokenId: string;
  @ApiProperty() owner: string;
  @ApiProperty({ type: PoolKeyDto }) poolKey: PoolKeyDto;
  @ApiProperty() tickLower: number;
  @ApiProperty() tickUpper: number;
  @ApiProperty({ description: 'Current liquidity' }) liquidity: string;
  @ApiProperty({ description: 'tickLower <= current tick < tickUpper' }) inRange: boolean;
  @ApiProperty({ description: 'token0 the liquidity is worth at the current price' })
  amount0: string;
  @ApiProperty({ description: 'token1 the liquidity is worth at the current price' })
  amount1: string;
  @ApiProperty({
    type: TokenAmountsDto,
    description: 'liquidity x (feeGrowthInside - feeGrowthInsideLast) / 2^128 (StateView)',
  })
  uncollectedFees: TokenAmountsDto;
  @ApiPropertyOptional({
    enum: [true],
    description:
      'Present only on a position in the pool of a deprecated ComplianceHook version (GET /api/v1/defi/config lists deprecatedPools): exit it (decrease, collect, burn); increasing it is 400 POOL_DEPRECATED.',
  })
  deprecated?: true;
  @ApiPropertyOptional({
    description:
      "The v4 PoolId of the position's pool when it is not the default WETH/tUSDC pool (another pool of the market, or with deprecated, a deprecated hook's pool); poolKey names its tokens and fee",
    example: `0x${'ab'.repeat(32)}`,
  })
  poolId?: string;
}

export class PositionsResponseDto {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty() owner: string;
  @ApiProperty({ example: 84532 }) chainId: number;
  @ApiProperty() walletBound: boolean;
  @ApiProperty({
    type: [PositionDto],
    description: 'Live positions of the current pool and of deprecated pools, by tokenId',
  })
  positions: PositionDto[];
}

export class PositionResponseDto extends PositionDto {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ example: 84532 }) chainId: number;
}

class PositionChangeDto extends BuildResponseDto {
  @ApiProperty({ example: '42' }) tokenId: string;
  @ApiProperty() owner: string;
  @ApiProperty() tickLower: number;
  @ApiProperty() tickUpper: number;
  @ApiProperty({ description: 'Liquidity of the position before this transaction' })
  positionLiquidity: string;
  @ApiProperty() sqrtPriceX96: string;
  @ApiProperty() currentTick: number;
}

export class IncreaseLiquidityResponseDto extends PositionChangeDto {
  @ApiProperty({ description: 'Liquidity added' }) liquidity: string;
  @ApiProperty({ description: 'Most token0 the increase may take (slippage included)' })
  amount0Max: string;
  @ApiProperty() amount1Max: string;
  @ApiProperty({ description: 'token0 taken at the build-time price' }) expectedAmount0: string;
  @ApiProperty() expectedAmount1: string;
  @ApiProperty() slippageBps: number;
}

export class DecreaseLiquidityResponseDto extends PositionChangeDto {
  @ApiProperty({ description: 'Liquidity removed' }) liquidity: string;
  @ApiProperty() remainingLiquidity: string;
  @ApiProperty({ description: 'Least token0 returned (current price less slippage)' })
  amount0Min: string;
  @ApiProperty() amount1Min: string;
  @ApiProperty({ description: 'token0 returned at the build-time price (fees come on top)' })
  expectedAmount0: string;
  @ApiProperty() expectedAmount1: string;
  @ApiProperty() slippageBps: number;
  @ApiProperty({ description: 'The NFT is burned too' }) burn: boolean;
  @ApiProperty({ description: 'Receives the tokens: the owner' }) recipient: string;
}

export class CollectFeesResponseDto extends PositionChangeDto {
  @ApiProperty({ description: 'Receives the fees' }) recipient: string;
}
