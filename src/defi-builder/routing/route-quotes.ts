/**
 * Quoting the candidate routes of a pair in the one batched read (issue 42 §3): each route adds
 * its V4Quoter quote, and a two-hop route the single-pool quote of the hop that fixes the
 * intermediate amount (the first hop for exact input, the last for exact output), so every hop's
 * amounts are known. The best route is the largest output (exact input) or the smallest input
 * (exact output); a route whose quote fails (no liquidity...) is skipped, not fatal. Pure.
 */
import type { NetworkDefinition } from '../../chain/network/network.types';
import type { ChainRead } from '../chain/defi-chain.port';
import { pathQuoteRead, poolQuoteRead, Quote } from '../encoding/market-reads';
import type { SwapPath, TradeType } from '../encoding/swap-calldata';
import type { Route } from './routes';

export type RouteQuoteReads = Record<string, ChainRead<Quote>>;

export interface QuotedHop {
  poolId: string;
  tokenIn: string;
  tokenOut: string;
  fee: number;
  amountIn: bigint;
  amountOut: bigint;
}

export interface QuotedRoute {
  route: Route;
  /** The route's quote: the other side's amount, as a single-pool quote reads. */
  quote: Extract<Quote, { ok: true }>;
  amountIn: bigint;
  amountOut: bigint;
  hops: QuotedHop[];
}

/** The best route, or why none could be quoted (the first candidate's failure). */
export type RouteChoice =
  | { ok: true; best: QuotedRoute }
  | Extract<Quote, { ok: false }>
  | {
      ok: false;
      zero: true;
    };

const totalKey = (i: number) => `route${i}`;
const hopKey = (i: number) => `route${i}:hop`;

/** The path of a multi-hop route, in pool currencies. */
export function routePath(route: Route): SwapPath {
  return {
    currencyIn: route.hops[0].tokenIn,
    currencyOut: route.hops[route.hops.length - 1].tokenOut,
    pools: route.hops.map((h) => h.pool),
  };
}

/** The quote reads of every candidate, keyed so they merge into the operation's batch. */
export function routeQuoteReads(
  network: NetworkDefinition,
  routes: readonly Route[],
  tradeType: TradeType,
  exact: bigint,
): RouteQuoteReads {
  const reads: RouteQuoteReads = {};
  routes.forEach((route, i) => {
    if (route.hops.length === 1) {
      const [hop] = route.hops;
      reads[totalKey(i)] = poolQuoteRead(network, hop.pool, hop.zeroForOne, tradeType, exact);
      return;
    }
    reads[totalKey(i)] = pathQuoteRead(network, routePath(route), tradeType, exact);
    const fixed = tradeType === 'EXACT_INPUT' ? route.hops[0] : route.hops[route.hops.length - 1];
    reads[hopKey(i)] = poolQuoteRead(network, fixed.pool, fixed.zeroForOne, tradeType, exact);
  });
  return reads;
}

function quoted(
  route: Route,
  quote: Extract<Quote, { ok: true }>,
  hopAmount: bigint | undefined,
  tradeType: TradeType,
  exact: bigint,
): QuotedRoute {
  const exactIn = tradeType === 'EXACT_INPUT';
  const [amountIn, amountOut] = exactIn ? [exact, quote.amount] : [quote.amount, exact];
  // Amounts between the hops: [in, (intermediate,) out].
  const amounts =
    route.hops.length === 1 ? [amountIn, amountOut] : [amountIn, hopAmount!, amountOut];
  const hops = route.hops.map((hop, i) => ({
    poolId: hop.pool.id,
    tokenIn: hop.tokenIn,
    tokenOut: hop.tokenOut,
    fee: hop.pool.fee,
    amountIn: amounts[i],
    amountOut: amounts[i + 1],
  }));
  return { route, quote, amountIn, amountOut, hops };
}

/** The best of the candidates out of the decoded batch. */
export function bestRoute(
  routes: readonly Route[],
  tradeType: TradeType,
  exact: bigint,
  reads: Record<string, unknown>,
): RouteChoice {
  const exactIn = tradeType === 'EXACT_INPUT';
  let best: QuotedRoute | null = null;
  let failure: RouteChoice | null = null;
  routes.forEach((route, i) => {
    const total = reads[totalKey(i)] as Quote;
    const hop = reads[hopKey(i)] as Quote | undefined;
    if (!total.ok || (hop !== undefined && !hop.ok)) {
      failure ??= total.ok ? (hop as Extract<Quote, { ok: false }>) : total;
      return;
    }
    if (total.amount === 0n || hop?.amount === 0n) {
      failure ??= { ok: false, zero: true };
      return;
    }
    const candidate = quoted(route, total, hop?.amount, tradeType, exact);
    const better =
      best === null ||
      (exactIn ? candidate.amountOut > best.amountOut : candidate.amountIn < best.amountIn);
    if (better) best = candidate;
  });
  if (best !== null) return { ok: true, best };
  return failure ?? { ok: false, zero: true };
}

/** The choice as a single quote (what swapLimits and the quote answer read). */
export function choiceQuote(choice: RouteChoice): Quote {
  if (choice.ok) return choice.best.quote;
  if ('zero' in choice) return { ok: true, amount: 0n, gasEstimate: 0n };
  return choice;
}
