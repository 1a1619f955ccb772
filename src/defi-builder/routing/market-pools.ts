/**
 * The network's listed pools (design §9 "Markets": the network file's `pools`, each with its v4
 * PoolId), what routes and the relay's swap shapes are checked against. Deprecated pools are
 * not listed (they sit in `deprecatedPools`): nothing routes through them.
 */
import type { NetworkDefinition } from '../../chain/network/network.types';
import type { RoutablePool, RouteSearch } from './routes';

const listed = new WeakMap<NetworkDefinition, RouteSearch>();

/** The pools a route may use, and the deprecated pool ids, computed once per network. */
export function marketOf(network: NetworkDefinition): RouteSearch {
  let market = listed.get(network);
  if (market === undefined) {
    market = {
      pools: network.pools,
      deprecated: new Set(network.deprecatedPools.map((p) => p.id.toLowerCase())),
    };
    listed.set(network, market);
  }
  return market;
}

const same = (a: unknown, b: string) =>
  typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/** The listed pool with this key (currencies, fee, tick spacing, hooks), or undefined. */
export function listedPool(
  network: NetworkDefinition,
  key: readonly [unknown, unknown, unknown, unknown, unknown],
): RoutablePool | undefined {
  const [currency0, currency1, fee, tickSpacing, hooks] = key;
  const market = marketOf(network);
  return market.pools.find(
    (p) =>
      same(currency0, p.currency0) &&
      same(currency1, p.currency1) &&
      Number(fee) === p.fee &&
      Number(tickSpacing) === p.tickSpacing &&
      same(hooks, p.hooks) &&
      !market.deprecated?.has(p.id.toLowerCase()),
  );
}
