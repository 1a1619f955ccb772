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

/** /docs' named examples of a quote: one pool, and two hops (design §9 "Markets"). */
export const QUOTE_EXAMPLES = {
  'WETH to tUSDC (one pool)': {
    value: { tokenIn: EXAMPLE.WETH, tokenOut: EXAMPLE.tUSDC, amount: '100000000000000000' },
  },
  'tWBTC to tUSDC (two hops, through WETH)': {
    value: { tokenIn: EXAMPLE.tWBTC, tokenOut: EXAMPLE.tUSDC, amount: '1000000' },
  },
};
