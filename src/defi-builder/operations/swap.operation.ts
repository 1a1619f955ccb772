/**
 * POST /api/v1/defi/swap through the UniversalRouter (spec §2.1, §4; issues 11, 42): exact input
 * or exact output, native ETH on either side, a signed Permit2 permit instead of the Permit2
 * approval, over the best route of the pair (one pool, or two hops through one token). The
 * preflight batch carries every candidate route's V4Quoter quote; the limits follow from the best.
 */
import type { PoolKeyInfo } from '../../chain/network/network.types';
import type { DefiOperation } from '../pipeline/defi-pipeline.service';
import { CALIBRATED_GAS } from '../pipeline/gas';
import type { BuildResponseBase, SwapResponse } from '../defi-builder.types';
import type { SwapRequestDto } from '../dto/swap-request.dto';
import { encodeSwapCalldata } from '../encoding/swap-calldata';
import { signedPermit } from '../preflight/spend-plan';
import { choosePairRoute, pairRoutes, routeView, swapPoolsOf } from '../routing/pair-route';
import { RouteQuoteReads, routeQuoteReads } from '../routing/route-quotes';
import { swapGas, swapLimits, tradeTypeOf } from './swap-limits';

export { DEFAULT_SLIPPAGE_BPS } from './swap-limits';

type SwapDetails = Omit<SwapResponse, keyof BuildResponseBase>;
type SwapReads = RouteQuoteReads;
type Tokens = 'tokenIn' | 'tokenOut';

export const swapOperation: DefiOperation<SwapRequestDto, Tokens, SwapReads, SwapDetails> = {
  preflight: (dto) => ({
    session: 'required',
    nativeEth: true,
    tokens: { tokenIn: dto.tokenIn, tokenOut: dto.tokenOut },
    reads: (tokens, network) =>
      routeQuoteReads(network, pairRoutes(network, tokens), tradeTypeOf(dto), BigInt(dto.amount)),
    spend: (tokens, reads, network) => {
      const { quote, route } = choosePairRoute(
        network,
        tokens,
        tradeTypeOf(dto),
        BigInt(dto.amount),
        reads,
      );
      return {
        use: 'swap',
        needs: [
          {
            symbol: tokens.tokenIn.symbol,
            amount: swapLimits(dto, quote, tokens).maxIn,
            native: tokens.tokenIn.native,
          },
        ],
        gas: CALIBRATED_GAS[swapGas(tokens, dto.permit !== undefined, route.hops.length)],
        offerPermit: 'single',
        signed: signedPermit('permit', dto.userAddress, dto.permit, dto.permitSignature),
      };
    },
  }),

  build: (dto, { network, tokens, reads }, deadline) => {
    const { tokenIn, tokenOut } = tokens;
    const chosen = choosePairRoute(network, tokens, tradeTypeOf(dto), BigInt(dto.amount), reads);
    const { route } = chosen;
    const limits = swapLimits(dto, chosen.quote, tokens);
    const exactIn = limits.tradeType === 'EXACT_INPUT';
    const permit = dto.permit && { permit: dto.permit, signature: dto.permitSignature! };
    const gas = swapGas(tokens, permit !== undefined, route.hops.length);
    const [first] = route.hops;
    const amounts = exactIn
      ? { amountIn: limits.exact, amountOutMinimum: limits.limit }
      : {
          tradeType: 'EXACT_OUTPUT' as const,
          amountOut: limits.exact,
          amountInMaximum: limits.limit,
        };
    const data = encodeSwapCalldata(
      Object.assign(
        { deadline: BigInt(deadline), ethIn: tokenIn.native, ethOut: tokenOut.native, permit },
        amounts,
        swapPoolsOf(route),
      ),
    );
    const quoted = limits.quoted === null ? null : limits.quoted.toString();
    return {
      to: network.contracts.universalRouter,
      data,
      value: tokenIn.native ? limits.maxIn : 0n,
      gas,
      details: {
        tradeType: limits.tradeType,
        tokenIn: tokenIn.address,
        tokenOut: tokenOut.address,
        // The first hop's pool and direction; `route` lists every hop.
        zeroForOne: first.zeroForOne,
        poolKey: poolKeyOf(first.pool),
        ...(exactIn
          ? {
              amountIn: limits.exact.toString(),
              quotedAmountOut: quoted,
              minAmountOut: limits.limit.toString(),
            }
          : {
              amountOut: limits.exact.toString(),
              quotedAmountIn: quoted,
              maxAmountIn: limits.limit.toString(),
            }),
        slippageBps: limits.slippageBps,
        route: routeView(chosen),
      },
    };
  },
};

/** The pool key fields of a listed pool (its id is in `route`). */
function poolKeyOf(pool: PoolKeyInfo): PoolKeyInfo {
  const { currency0, currency1, fee, tickSpacing, hooks } = pool;
  return { currency0, currency1, fee, tickSpacing, hooks };
}
