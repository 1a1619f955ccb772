import { AbiCoder, getAddress, keccak256 } from 'ethers';
import { POOL_KEY_TUPLE } from '../abi/uniswap-v4';

/** The v4 PoolKey: what the deployment seeds and every build routes through. */
export interface PoolKey {
  currency0: string;
  currency1: string;
  fee: number;
  tickSpacing: number;
  hooks: string;
}

export type PoolKeyTuple = [string, string, number, number, string];

// A network has one pool key object for its lifetime: its id and checksummed tuple are computed
// once instead of on every build (each costs keccak hashes).
const ids = new WeakMap<PoolKey, string>();
const tuples = new WeakMap<PoolKey, PoolKeyTuple>();

/** v4-core PoolIdLibrary.toId: keccak256(abi.encode(poolKey)). */
export function poolIdOf(key: PoolKey): string {
  let id = ids.get(key);
  if (id === undefined) {
    id = keccak256(AbiCoder.defaultAbiCoder().encode([POOL_KEY_TUPLE], [poolKeyTuple(key)]));
    ids.set(key, id);
  }
  return id;
}

export function poolKeyTuple(key: PoolKey): PoolKeyTuple {
  let tuple = tuples.get(key);
  if (tuple === undefined) {
    tuple = [
      getAddress(key.currency0),
      getAddress(key.currency1),
      key.fee,
      key.tickSpacing,
      getAddress(key.hooks),
    ];
    tuples.set(key, tuple);
  }
  return [...tuple];
}

const keys = new WeakMap<PoolKey, PoolKey>();

/**
 * The five fields of a pool key, as answers show `poolKey` (a network's MarketPool also carries
 * its id). One object per pool: the network's pools live as long as the process.
 */
export function poolKeyOf(pool: PoolKey): PoolKey {
  let key = keys.get(pool);
  if (key === undefined) {
    key = {
      currency0: pool.currency0,
      currency1: pool.currency1,
      fee: pool.fee,
      tickSpacing: pool.tickSpacing,
      hooks: pool.hooks,
    };
    keys.set(pool, key);
  }
  return key;
}
