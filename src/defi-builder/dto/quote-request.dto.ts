import { PickType } from '@nestjs/swagger';
import { SwapRequestDto } from './swap-request.dto';

/** Body of POST /api/v1/defi/quote: the swap's trade fields, no wallet. */
export class QuoteRequestDto extends PickType(SwapRequestDto, [
  'tokenIn',
  'tokenOut',
  'amount',
  'tradeType',
] as const) {}
