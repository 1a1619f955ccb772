/**
 * POST /api/v1/defi/quote: a V4Quoter quote with the pool's price, for either trade type, without
 * a wallet: ONE eth_call (Multicall3 aggregate3: block number, the quote with allowFailure, and
 * StateView.getSlot0).
 */
import { poolKeyOf } from '../encoding/pool-key';
import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { DEFI_CHAIN, DefiChain } from '../chain/defi-chain.port';
import type { QuoteRequestDto } from '../dto/quote-request.dto';
import type { QuoteResponseDto } from '../dto/quote-response.dto';
import { quoteRead, slot0Read } from '../encoding/market-reads';
import { quotePrices } from '../encoding/price-impact';
import { symbolOf, tradeTypeOf, zeroForOneOf } from '../operations/swap-limits';
import { resolveTokens } from '../token-registry';

@Injectable()
export class QuoteService {
  constructor(@Inject(DEFI_CHAIN) private readonly chain: DefiChain) {}

  async quote(dto: QuoteRequestDto): Promise<Omit<QuoteResponseDto, 'authMethod'>> {
    const network = this.chain.network();
    const tokens = resolveTokens(
      network,
      { tokenIn: dto.tokenIn, tokenOut: dto.tokenOut },
      { native: true },
    );
    const zeroForOne = zeroForOneOf(network, tokens);
    const tradeType = tradeTypeOf(dto);
    const exact = BigInt(dto.amount);
    const { blockNumber, reads } = await this.chain.read({
      quote: quoteRead(network, zeroForOne, tradeType, exact),
      slot0: slot0Read(network),
    });
    const { quote, slot0 } = reads;
    if (!quote.ok || quote.amount === 0n) {
      const why = quote.ok ? 'the quote was zero' : quote.revert.summary;
      throw new ApiError(
        'BUILD_FAILED',
        `Could not quote ${tradeType} ${exact} (${symbolOf(tokens.tokenIn)} -> ${symbolOf(tokens.tokenOut)}): ${why}`,
        { hint: 'Lower the amount: the pool may lack liquidity for it.' },
      );
    }
    const [amountIn, amountOut] =
      tradeType === 'EXACT_INPUT' ? [exact, quote.amount] : [quote.amount, exact];
    const pool = (t: typeof tokens.tokenIn) => network.tokens[t.symbol];
    return {
      tradeType,
      tokenIn: tokens.tokenIn.address,
      tokenOut: tokens.tokenOut.address,
      amountIn: amountIn.toString(),
      amountOut: amountOut.toString(),
      ...quotePrices({
        chainId: network.chainId,
        tokenIn: pool(tokens.tokenIn),
        tokenOut: pool(tokens.tokenOut),
        zeroForOne,
        sqrtPriceX96: slot0.sqrtPriceX96,
        amountIn,
        amountOut,
      }),
      poolKey: poolKeyOf(network.pool),
      gasEstimate: quote.gasEstimate.toString(),
      blockNumber,
    };
  }
}
