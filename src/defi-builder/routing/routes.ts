/**
 * Route finding over the network's listed pools (issue 42 §3, design §9 "Markets"): for a pair,
 * every listed pool between the two tokens and every two-hop route through one intermediate
 * token. Deprecated pools never route. Pure: the pools come in; tokens are pool currencies
 * (native ETH is routed as WETH, the router wraps/unwraps it).
 */
import type { MarketPool } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';

/** A listed pool: its key and v4 PoolId (the network file's `pools[]`). */
export type RoutablePool = MarketPool;

export interface RouteHop {
  pool: RoutablePool;
  /** Pool currencies (checksummed as the network lists them). */
  tokenIn: string;
  tokenOut: string;
  zeroForOne: boolean;
}

export interface Route {
  /** In trade order: hops[0].tokenIn is the route's input, the last tokenOut its output. */
  hops: RouteHop[];
}

export interface RouteSearch {
  pools: readonly RoutablePool[];
  /** PoolIds that must not route (the network's deprecated pools). */
  deprecated?: ReadonlySet<string>;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function otherSide(pool: RoutablePool, token: string): string | null {
  if (same(pool.currency0, token)) return pool.currency1;
  if (same(pool.currency1, token)) return pool.currency0;
  return null;
}

function hop(pool: RoutablePool, tokenIn: string, tokenOut: string): RouteHop {
  return { pool, tokenIn, tokenOut, zeroForOne: BigInt(tokenIn) < BigInt(tokenOut) };
}

function livePools({ pools, deprecated }: RouteSearch): RoutablePool[] {
  return pools.filter((p) => !deprecated?.has(p.id.toLowerCase()));
}

/** Direct pools first (in listing order), then two-hop routes (by intermediate, then pools). */
export function findRoutes(search: RouteSearch, tokenIn: string, tokenOut: string): Route[] {
  const pools = livePools(search);
  const routes: Route[] = [];
  for (const pool of pools) {
    const other = otherSide(pool, tokenIn);
    if (other !== null && same(other, tokenOut))
      routes.push({ hops: [hop(pool, tokenIn, tokenOut)] });
  }
  for (const first of pools) {
    const middle = otherSide(first, tokenIn);
    if (middle === null || same(middle, tokenOut)) continue;
    for (const second of pools) {
      if (second === first) continue;
      const end = otherSide(second, middle);
      if (end !== null && same(end, tokenOut))
        routes.push({ hops: [hop(first, tokenIn, middle), hop(second, middle, tokenOut)] });
    }
  }
  return routes;
}

/** Every token a route of at most two hops reaches from `token` (itself excluded). */
export function reachableFrom(search: RouteSearch, token: string): string[] {
  const pools = livePools(search);
  const neighbours = (t: string) =>
    pools.map((p) => otherSide(p, t)).filter((o): o is string => o !== null);
  const reached = new Map<string, string>();
  for (const one of neighbours(token)) {
    reached.set(one.toLowerCase(), one);
    for (const two of neighbours(one)) reached.set(two.toLowerCase(), two);
  }
  reached.delete(token.toLowerCase());
  return [...reached.values()];
}

/**
 * The routes of a pair, or 400 NO_ROUTE whose hint names what is tradable from the input token.
 * `label` names a token for people (its symbol).
 */
export function routesOrNoRoute(
  search: RouteSearch,
  tokenIn: string,
  tokenOut: string,
  label: (token: string) => string,
): Route[] {
  const routes = findRoutes(search, tokenIn, tokenOut);
  if (routes.length > 0) return routes;
  const reachable = reachableFrom(search, tokenIn).map(label);
  throw new ApiError(
    'NO_ROUTE',
    `No listed pool or two-hop route connects ${label(tokenIn)} to ${label(tokenOut)}`,
    {
      hint:
        reachable.length > 0
          ? `${label(tokenIn)} trades against ${reachable.join(', ')} here (directly or through one other token); GET /api/v1/defi/config lists the pools.`
          : `No listed pool holds ${label(tokenIn)}; GET /api/v1/defi/config lists the pools.`,
      extra: { tokenIn, tokenOut, tradableFromTokenIn: reachable },
    },
  );
}
