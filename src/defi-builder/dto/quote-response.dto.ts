import { ApiProperty } from '@nestjs/swagger';
import { PoolKeyDto, RouteDto } from './build-response.dto';

/** Response of POST /api/v1/defi/quote. */
export class QuoteResponseDto {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ enum: ['EXACT_INPUT', 'EXACT_OUTPUT'] }) tradeType: string;
  @ApiProperty({ description: 'As sent (the zero address for native ETH).' }) tokenIn: string;
  @ApiProperty() tokenOut: string;
  @ApiProperty({ description: 'Smallest units of tokenIn (exact, or quoted for EXACT_OUTPUT).' })
  amountIn: string;
  @ApiProperty({ description: 'Smallest units of tokenOut (quoted, or exact for EXACT_OUTPUT).' })
  amountOut: string;
  @ApiProperty({
    description:
      "Execution price vs the route mid price (the product of its pools' prices), in basis points (LP fees included, as Uniswap reports it).",
    example: 31,
  })
  priceImpactBps: number;
  @ApiProperty({
    description: "The route's price before the trade: tokenOut per tokenIn (whole tokens).",
  })
  midPrice: string;
  @ApiProperty({ description: 'amountOut / amountIn in whole tokens.' }) executionPrice: string;
  @ApiProperty({ type: PoolKeyDto, description: "The route's first pool." }) poolKey: PoolKeyDto;
  @ApiProperty({
    type: RouteDto,
    description: 'The best route of the pair, each hop with its quoted amounts.',
  })
  route: RouteDto;
  @ApiProperty({ description: "The V4Quoter's gas estimate of the swap itself." })
  gasEstimate: string;
  @ApiProperty({ description: 'Block the quote was read at.' }) blockNumber: number;
}
