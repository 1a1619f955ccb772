/**
 * POST /api/v1/defi/quote: the best route's V4Quoter quote with its pools' prices, for either
 * trade type, without a wallet: ONE eth_call (Multicall3 aggregate3: block number, every
 * candidate route's quote with allowFailure, and StateView.getSlot0 of each pool they use).
 */
import { Inject, Injectable } from '@nestjs/common';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';
import { DEFI_CHAIN, DefiChain } from '../chain/defi-chain.port';
import type { QuoteRequestDto } from '../dto/quote-request.dto';
import type { QuoteResponseDto } from '../dto/quote-response.dto';
import { poolSlot0Read, Slot0 } from '../encoding/market-reads';
import { PricedToken, routeQuotePrices } from '../encoding/price-impact';
import { symbolOf, tradeTypeOf } from '../operations/swap-limits';
import { choosePairRoute, pairRoutes, routeView } from '../routing/pair-route';
import { routeQuoteReads } from '../routing/route-quotes';
import type { Route } from '../routing/routes';
import { resolveTokens } from '../token-registry';

const slot0Key = (poolId: string) => `slot0:${poolId}`;

/** The price of every pool the candidates use, keyed beside the route quotes. */
function poolPriceReads(network: NetworkDefinition, routes: readonly Route[]) {
  const reads: Record<string, ReturnType<typeof poolSlot0Read>> = {};
  for (const route of routes)
    for (const { pool } of route.hops) reads[slot0Key(pool.id)] = poolSlot0Read(network, pool);
  return reads;
}

function pricedToken(network: NetworkDefinition, address: string): PricedToken {
  const token = Object.values(network.tokens).find(
    (t) => t.address.toLowerCase() === address.toLowerCase(),
  )!;
  return { address: token.address, decimals: token.decimals };
}

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
    const tradeType = tradeTypeOf(dto);
    const exact = BigInt(dto.amount);
    const routes = pairRoutes(network, tokens);
    const { blockNumber, reads } = await this.chain.read(
      Object.assign(
        routeQuoteReads(network, routes, tradeType, exact),
        poolPriceReads(network, routes),
      ),
    );
    const chosen = choosePairRoute(network, tokens, tradeType, exact, reads);
    const { choice, quote } = chosen;
    if (!choice.ok || !quote.ok) {
      const why = quote.ok ? 'the quote was zero' : quote.revert.summary;
      throw new ApiError(
        'BUILD_FAILED',
        `Could not quote ${tradeType} ${exact} (${symbolOf(tokens.tokenIn)} -> ${symbolOf(tokens.tokenOut)}): ${why}`,
        { hint: 'Lower the amount: the pool may lack liquidity for it.' },
      );
    }
    const { best } = choice;
    const first = best.route.hops[0];
    const { currency0, currency1, fee, tickSpacing, hooks } = first.pool;
    return {
      tradeType,
      tokenIn: tokens.tokenIn.address,
      tokenOut: tokens.tokenOut.address,
      amountIn: best.amountIn.toString(),
      amountOut: best.amountOut.toString(),
      ...routeQuotePrices({
        chainId: network.chainId,
        hops: best.route.hops.map((hop) => ({
          tokenIn: pricedToken(network, hop.tokenIn),
          tokenOut: pricedToken(network, hop.tokenOut),
          zeroForOne: hop.zeroForOne,
          sqrtPriceX96: (reads[slot0Key(hop.pool.id)] as Slot0).sqrtPriceX96,
        })),
        amountIn: best.amountIn,
        amountOut: best.amountOut,
      }),
      // The first hop's pool; `route` lists every hop.
      poolKey: { currency0, currency1, fee, tickSpacing, hooks },
      route: routeView(chosen),
      gasEstimate: best.quote.gasEstimate.toString(),
      blockNumber,
    };
  }
}
