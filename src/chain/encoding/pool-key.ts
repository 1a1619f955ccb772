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
