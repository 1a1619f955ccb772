/**
 * Which of the network's pools a position or a liquidity request is in: a pool of the market (the
 * network file's `pools`, design §9: the spec's WETH/tUSDC pool by default), or a pool of a
 * deprecated hook version (`deprecated.pools`). A deprecated pool's positions are listed (marked
 * deprecated) and can always be exited; building into it is 400 POOL_DEPRECATED, whose hint names
 * the current pool. A pair with several pools needs a poolId (400 POOL_AMBIGUOUS). Pure.
 */
import { getAddress, isAddress } from 'ethers';
import { poolsOfPair } from '../../chain/network/market-definition';
import type {
  DeprecatedPool,
  MarketPool,
  NetworkDefinition,
} from '../../chain/network/network.types';
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
  /** The v4 PoolId. */
  id: string;
}

const views = new WeakMap<object, { of: NetworkDefinition; at: NetworkDefinition }>();

/**
 * The network with `pool` as its pool: every pool-keyed read and encoder then targets it. One
 * object per network and pool (a network lives as long as the process), so it can be compared.
 */
export function atPool(
  network: NetworkDefinition,
  pool: DeprecatedPool | MarketPool,
): NetworkDefinition {
  if (pool === network.pool) return network;
  const known = views.get(pool);
  if (known?.of === network) return known.at;
  const at: NetworkDefinition = Object.assign({}, network, {
    pool: 'key' in pool ? pool.key : pool,
  });
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
  const market = network.pools.find((p) => p.id === id);
  if (market) return { network: atPool(network, market), deprecated: null, id };
  const deprecated = network.deprecatedPools.find((p) => p.id === id);
  return deprecated ? { network: atPool(network, deprecated), deprecated, id } : null;
}

const slot0Key = (id: string) => `slot0:${id}`;

/**
 * The price of every other pool (the market's and the deprecated ones), to ride in the batch
 * beside the default pool's `slot0`: a position's pool is known only once the batch is read.
 */
export function otherPoolPriceReads(network: NetworkDefinition): ChainReads {
  const reads: Record<string, ChainRead<Slot0>> = {};
  for (const pool of [...network.pools, ...network.deprecatedPools])
    if (pool !== network.pool) reads[slot0Key(pool.id)] = slot0Read(atPool(network, pool));
  return reads;
}

/** The price of the position's pool out of a batch holding `slot0` and the other pools' prices. */
export function poolPrice(
  pool: PositionPool,
  reads: DecodedReads<ChainReads> | { slot0: Slot0 },
): Slot0 {
  const all = reads as Record<string, unknown>;
  return (all[slot0Key(pool.id)] ?? all.slot0) as Slot0;
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

/** A pool as hints name it: `tUSDC/tEURC fee 500 (poolId 0x...)`. */
function describePool(network: NetworkDefinition, pool: MarketPool): string {
  const symbol = (address: string) =>
    Object.values(network.tokens).find((t) => t.address === address)?.symbol ?? address;
  return `${symbol(pool.currency0)}/${symbol(pool.currency1)} fee ${pool.fee} (poolId ${pool.id})`;
}

/**
 * The pool a liquidity request adds to (design §9), as the network seen at that pool: its
 * `poolId`, else the pair's only pool. A deprecated pool is 400 POOL_DEPRECATED; a pair with
 * several pools and no poolId is 400 POOL_AMBIGUOUS naming the choices; a poolId of another pair,
 * an unknown poolId or a pair without a pool is 400 INVALID_PARAMS naming the pools. Tokens not
 * listed are left to the preflight's UNSUPPORTED_TOKEN.
 */
export function liquidityPool(
  network: NetworkDefinition,
  request: { token0: string; token1: string; poolId?: string },
): NetworkDefinition {
  const listed = (address: string) =>
    isAddress(address) &&
    Object.values(network.tokens).some((t) => t.address === getAddress(address));
  const pair = listed(request.token0) && listed(request.token1);
  const ofPair = pair ? poolsOfPair(network.pools, request.token0, request.token1) : [];
  const all = network.pools.map((p) => describePool(network, p)).join('; ');
  if (request.poolId !== undefined) {
    const id = request.poolId.toLowerCase();
    const deprecated = network.deprecatedPools.find((p) => p.id === id);
    if (deprecated) throw poolDeprecated(network, deprecated, `poolId ${id}`);
    const pool = network.pools.find((p) => p.id === id);
    if (!pool)
      throw new ApiError('INVALID_PARAMS', `poolId ${id} is not a pool of this network`, {
        hint: `Send one of the pools of GET /api/v1/defi/config, or omit poolId for the pair's only pool: ${all}.`,
        details: [
          { field: 'poolId', constraint: 'knownPool', message: 'poolId must name a listed pool' },
        ],
      });
    if (pair && !ofPair.includes(pool))
      throw new ApiError('INVALID_PARAMS', `poolId ${id} is not a pool of token0/token1`, {
        hint: `${describePool(network, pool)} pools other tokens: send its currency0 and currency1 as token0 and token1, or the poolId of this pair.`,
        details: [
          {
            field: 'poolId',
            constraint: 'poolOfPair',
            message: 'poolId must be a pool of token0/token1',
          },
        ],
      });
    return atPool(network, pool);
  }
  if (!pair || ofPair.length === 1) return pair ? atPool(network, ofPair[0]) : network;
  if (ofPair.length === 0)
    throw new ApiError('INVALID_PARAMS', 'token0/token1 have no pool on this network', {
      hint: `Liquidity goes into a listed pool: ${all} (GET /api/v1/defi/config).`,
      details: [
        {
          field: 'token1',
          constraint: 'poolOfPair',
          message: 'token0/token1 must be the currencies of a listed pool',
        },
      ],
    });
  const choices = ofPair.map((p) => ({ poolId: p.id, fee: p.fee, tickSpacing: p.tickSpacing }));
  throw new ApiError(
    'POOL_AMBIGUOUS',
    `token0/token1 have ${ofPair.length} pools: say which one with poolId`,
    {
      hint: `Send poolId, one of: ${ofPair.map((p) => describePool(network, p)).join('; ')}.`,
      extra: { choices },
    },
  );
}
