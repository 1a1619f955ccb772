/**
 * Which of the network's pools a position is in: the current pool, or a pool of a deprecated
 * hook version (the network file's `deprecated.pools`, design §9). A deprecated pool's
 * positions are listed (marked deprecated) and can always be exited; building into it is 400
 * POOL_DEPRECATED, whose hint names the current pool. Pure.
 */
import type { DeprecatedPool, NetworkDefinition } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';
import type { ChainRead, ChainReads, DecodedReads } from '../chain/defi-chain.port';
import { Slot0, slot0Read } from '../encoding/market-reads';
import { poolIdOf } from '../encoding/pool-key';
import type { PositionRecord } from './position-reads';

/** A position's pool: its key, its price, and the deprecated entry when it is an old hook's pool. */
export interface PositionPool {
  /** The network seen at this pool (its `pool` is the position's pool key): for the pure encoders. */
  network: NetworkDefinition;
  deprecated: DeprecatedPool | null;
}

const views = new WeakMap<DeprecatedPool, { of: NetworkDefinition; at: NetworkDefinition }>();

/**
 * The network with `pool` as its pool: every pool-keyed read and encoder then targets it. One
 * object per network and pool (a network lives as long as the process), so it can be compared.
 */
export function atPool(network: NetworkDefinition, pool: DeprecatedPool): NetworkDefinition {
  const known = views.get(pool);
  if (known?.of === network) return known.at;
  const at: NetworkDefinition = Object.assign({}, network, { pool: pool.key });
  views.set(pool, { of: network, at });
  return at;
}

/** The position's pool, or null when it is in none of the network's pools (or has no key). */
export function positionPool(
  network: NetworkDefinition,
  position: Pick<PositionRecord, 'poolKey'>,
): PositionPool | null {
  if (position.poolKey === null) return null;
  const id = poolIdOf(position.poolKey);
  if (id === poolIdOf(network.pool)) return { network, deprecated: null };
  const deprecated = network.deprecatedPools.find((p) => p.id === id);
  return deprecated ? { network: atPool(network, deprecated), deprecated } : null;
}

const slot0Key = (pool: DeprecatedPool) => `slot0:${pool.id}`;

/** The price of every deprecated pool, to ride in the batch beside the current pool's `slot0`. */
export function deprecatedPoolPriceReads(network: NetworkDefinition): ChainReads {
  const reads: Record<string, ChainRead<Slot0>> = {};
  for (const pool of network.deprecatedPools)
    reads[slot0Key(pool)] = slot0Read(atPool(network, pool));
  return reads;
}

/** The price of the position's pool out of a batch holding `slot0` and the deprecated pools' prices. */
export function poolPrice(
  pool: PositionPool,
  reads: DecodedReads<ChainReads> | { slot0: Slot0 },
): Slot0 {
  const all = reads as Record<string, unknown>;
  return (pool.deprecated ? all[slot0Key(pool.deprecated)] : all.slot0) as Slot0;
}

/** 400 POOL_DEPRECATED for a build into a deprecated pool, naming the current pool. */
export function poolDeprecated(
  network: NetworkDefinition,
  pool: DeprecatedPool,
  what: string,
): ApiError {
  const current = network.pool;
  return new ApiError(
    'POOL_DEPRECATED',
    `${what} is in the pool ${pool.id} of a deprecated ComplianceHook (${pool.key.hooks}): ${pool.reason}`,
    {
      hint: `Use the current pool ${poolIdOf(current)} (hook ${current.hooks}); GET /api/v1/defi/config lists it. Positions in the deprecated pool can still be exited: POST /api/v1/defi/liquidity/decrease (burn: true closes it) and /collect.`,
      extra: {
        poolId: pool.id,
        deprecated: true,
        currentPool: { poolId: poolIdOf(current), hooks: current.hooks },
      },
    },
  );
}

/**
 * A liquidity request's optional `poolId` (design §9): the current pool is accepted, a deprecated
 * one is 400 POOL_DEPRECATED, any other 400 INVALID_PARAMS naming the current pool.
 */
export function assertPoolChoice(network: NetworkDefinition, poolId: string | undefined): void {
  if (poolId === undefined) return;
  const id = poolId.toLowerCase();
  const current = poolIdOf(network.pool);
  if (id === current) return;
  const deprecated = network.deprecatedPools.find((p) => p.id === id);
  if (deprecated) throw poolDeprecated(network, deprecated, `poolId ${id}`);
  throw new ApiError('INVALID_PARAMS', `poolId ${id} is not a pool of this network`, {
    hint: `Send the current pool ${current} (hook ${network.pool.hooks}), or omit poolId; GET /api/v1/defi/config lists it.`,
    details: [
      { field: 'poolId', constraint: 'knownPool', message: `poolId must be ${current} or omitted` },
    ],
  });
}
