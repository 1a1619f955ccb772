import { PickType } from '@nestjs/swagger';
import { ApiRequestExample } from '../../common/openapi/api-request-example.decorator';
import { EXAMPLE } from './request-examples';
import { SwapRequestDto } from './swap-request.dto';

/** Body of POST /api/v1/defi/quote: the swap's trade fields, no wallet. */
@ApiRequestExample({
  tokenIn: EXAMPLE.WETH,
  tokenOut: EXAMPLE.tUSDC,
  amount: '100000000000000000',
  tradeType: 'EXACT_INPUT',
})
export class QuoteRequestDto extends PickType(SwapRequestDto, [
  'tokenIn',
  'tokenOut',
  'amount',
  'tradeType',
] as const) {}
