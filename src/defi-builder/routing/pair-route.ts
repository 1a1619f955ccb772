/**
 * The route of a swap or quote request: the pair's candidate routes (cached per network and
 * pair), the best of them out of the batch, and the `route` answer field (design §9). Pure.
 */
import type { NetworkDefinition } from '../../chain/network/network.types';
import type { Quote } from '../encoding/market-reads';
import type { SwapPools, TradeType } from '../encoding/swap-calldata';
import type { ResolvedToken } from '../token-registry';
import { marketOf } from './market-pools';
import { bestRoute, choiceQuote, QuotedHop, RouteChoice, routePath } from './route-quotes';
import { Route, routesOrNoRoute } from './routes';

type Pair = { tokenIn: ResolvedToken; tokenOut: ResolvedToken };

const cache = new WeakMap<NetworkDefinition, Map<string, Route[]>>();

/** The pool currency of a resolved token (WETH for native ETH). */
function currencyOf(network: NetworkDefinition, token: ResolvedToken): string {
  return network.tokens[token.symbol].address;
}

function labelOf(network: NetworkDefinition, address: string): string {
  const token = Object.values(network.tokens).find(
    (t) => t.address.toLowerCase() === address.toLowerCase(),
  );
  return token?.symbol ?? address;
}

/** Every route of the pair (direct pools first); 400 NO_ROUTE when there is none. */
export function pairRoutes(network: NetworkDefinition, pair: Pair): Route[] {
  let byPair = cache.get(network);
  if (byPair === undefined) {
    byPair = new Map();
    cache.set(network, byPair);
  }
  const tokenIn = currencyOf(network, pair.tokenIn);
  const tokenOut = currencyOf(network, pair.tokenOut);
  const key = `${tokenIn}:${tokenOut}`;
  let routes = byPair.get(key);
  if (routes === undefined) {
    routes = routesOrNoRoute(marketOf(network), tokenIn, tokenOut, (a) => labelOf(network, a));
    byPair.set(key, routes);
  }
  return routes;
}

/** The chosen route and the quote the limits follow from. */
export interface PairChoice {
  choice: RouteChoice;
  quote: Quote;
  /** The chosen route, or the first candidate when none could be quoted (explicit limits). */
  route: Route;
}

export function choosePairRoute(
  network: NetworkDefinition,
  pair: Pair,
  tradeType: TradeType,
  exact: bigint,
  reads: Record<string, unknown>,
): PairChoice {
  const routes = pairRoutes(network, pair);
  const choice = bestRoute(routes, tradeType, exact, reads);
  return { choice, quote: choiceQuote(choice), route: choice.ok ? choice.best.route : routes[0] };
}

/** What the swap encoder takes for a route: its one pool, or its path. */
export function swapPoolsOf(route: Route): SwapPools {
  if (route.hops.length === 1)
    return { poolKey: route.hops[0].pool, zeroForOne: route.hops[0].zeroForOne };
  return { path: routePath(route) };
}

export interface RouteHopView {
  poolId: string;
  tokenIn: string;
  tokenOut: string;
  fee: number;
  /** Smallest units; null when the route could not be quoted (the caller set the limit). */
  amountIn: string | null;
  amountOut: string | null;
}

/** The `route` answer field: each hop's pool, tokens (pool currencies), fee and quoted amounts. */
export function routeView({ choice, route }: PairChoice): { hops: RouteHopView[] } {
  if (choice.ok)
    return {
      hops: choice.best.hops.map((h: QuotedHop) => ({
        poolId: h.poolId,
        tokenIn: h.tokenIn,
        tokenOut: h.tokenOut,
        fee: h.fee,
        amountIn: h.amountIn.toString(),
        amountOut: h.amountOut.toString(),
      })),
    };
  return {
    hops: route.hops.map((h) => ({
      poolId: h.pool.id,
      tokenIn: h.tokenIn,
      tokenOut: h.tokenOut,
      fee: h.pool.fee,
      amountIn: null,
      amountOut: null,
    })),
  };
}
