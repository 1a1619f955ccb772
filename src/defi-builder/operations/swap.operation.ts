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
import { encodeSwapCalldata, maxAmountIn } from '../encoding/swap-calldata';
import { UINT128_LIMIT } from '../dto/validators';
import { signedPermit } from '../preflight/spend-plan';
import {
  choosePairRoute,
  PairChoice,
  pairRoutes,
  routeView,
  swapPoolsOf,
} from '../routing/pair-route';
import { RouteQuoteReads, routeQuoteReads } from '../routing/route-quotes';
import { DEFAULT_SLIPPAGE_BPS, swapGas, swapLimits, tradeTypeOf } from './swap-limits';
import { tradeTokenOf } from '../token-registry';

export { DEFAULT_SLIPPAGE_BPS } from './swap-limits';

type SwapDetails = Omit<SwapResponse, keyof BuildResponseBase>;
type SwapReads = RouteQuoteReads;
type Tokens = 'tokenIn' | 'tokenOut';

export const swapOperation: DefiOperation<SwapRequestDto, Tokens, SwapReads, SwapDetails> = {
  name: 'swap',
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

  trade: (dto, { network, tokens, reads }) => {
    const chosen = choosePairRoute(network, tokens, tradeTypeOf(dto), BigInt(dto.amount), reads);
    const limits = swapLimits(dto, chosen.quote, tokens);
    const exactIn = limits.tradeType === 'EXACT_INPUT';
    // The router swaps an exact-output path from its last pool: the hook meets that one first.
    const hops = exactIn ? chosen.route.hops : [...chosen.route.hops].reverse();
    const pair = { tokenIn: tradeTokenOf(tokens.tokenIn), tokenOut: tradeTokenOf(tokens.tokenOut) };
    return {
      request: exactIn
        ? { kind: 'swap', ...pair, tradeType: 'EXACT_INPUT', amountIn: limits.exact }
        : { kind: 'swap', ...pair, tradeType: 'EXACT_OUTPUT', amountInMaximum: limits.limit },
      authorization: {
        kind: 'swap',
        poolId: hops[0].pool.id,
        route: hops.map((h) => h.pool.id),
        zeroForOne: hops[0].zeroForOne,
        amount: limits.exact,
        exactOutput: !exactIn,
        ...(hops.length > 1 && { nextAmountMax: nextHopMax(chosen, exactIn, limits.slippageBps) }),
      },
    };
  },

  build: (dto, { network, tokens, reads }, deadline, hookData) => {
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
        {
          deadline: BigInt(deadline),
          ethIn: tokenIn.native,
          ethOut: tokenOut.native,
          permit,
          // Hook v3's authorization (issue 54), per pool in trade order.
          hookData: hookData && route.hops.map((h) => hookData[h.pool.id.toLowerCase()] ?? '0x'),
        },
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
        // One name for one thing (issue 53): amountIn and amountOut as the quote answers them,
        // the exact side and the quoted side; quotedAmountOut/In are their deprecated aliases.
        ...(exactIn
          ? {
              amountIn: limits.exact.toString(),
              amountOut: quoted,
              minAmountOut: limits.limit.toString(),
              quotedAmountOut: quoted,
            }
          : {
              amountIn: quoted,
              amountOut: limits.exact.toString(),
              maxAmountIn: limits.limit.toString(),
              quotedAmountIn: quoted,
            }),
        slippageBps: limits.slippageBps,
        route: routeView(chosen),
      },
    };
  },
};

/**
 * A two-hop route's second authorization bound (hook v3): the most the second pool the router
 * meets may see, the quoted amount of the linking currency (first hop's output for exact input,
 * second hop's input for exact output) plus the build's slippage (the default one when the caller
 * set an explicit limit). An unquoted route (explicit limit, quote failed) is bound by uint128.
 */
function nextHopMax(chosen: PairChoice, exactIn: boolean, slippageBps: number | null): bigint {
  if (!chosen.choice.ok) return UINT128_LIMIT - 1n;
  const [first, second] = chosen.choice.best.hops;
  const linking = exactIn ? first.amountOut : second.amountIn;
  return maxAmountIn(linking, slippageBps ?? DEFAULT_SLIPPAGE_BPS);
}

/** The pool key fields of a listed pool (its id is in `route`). */
function poolKeyOf(pool: PoolKeyInfo): PoolKeyInfo {
  const { currency0, currency1, fee, tickSpacing, hooks } = pool;
  return { currency0, currency1, fee, tickSpacing, hooks };
}
