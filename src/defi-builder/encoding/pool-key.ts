import { AbiCoder, getAddress, keccak256 } from 'ethers';
import { POOL_KEY_TUPLE } from '../../chain/abi/uniswap-v4';
import { addressWord, intWord, uintWord } from '../../chain/encoding/abi-words';

export interface PoolKey {
  currency0: string;
  currency1: string;
  fee: number;
  tickSpacing: number;
  hooks: string;
}

type PoolKeyTuple = [string, string, number, number, string];

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

/** A pool key as ABI words (hex, no 0x), for the hand-written calldata encoders. */
export interface PoolKeyWords {
  /** The 5 words of the static PoolKey tuple. */
  key: string;
  currency0: string;
  currency1: string;
}

const words = new WeakMap<PoolKey, PoolKeyWords>();

export function poolKeyWords(key: PoolKey): PoolKeyWords {
  let encoded = words.get(key);
  if (encoded === undefined) {
    const [currency0, currency1, fee, tickSpacing, hooks] = poolKeyTuple(key);
    encoded = {
      key:
        addressWord(currency0) +
        addressWord(currency1) +
        uintWord(BigInt(fee), 24) +
        intWord(BigInt(tickSpacing), 24) +
        addressWord(hooks),
      currency0: addressWord(currency0),
      currency1: addressWord(currency1),
    };
    words.set(key, encoded);
  }
  return encoded;
}

/** Spec §2.1 rule 3: zeroForOne follows the address order (selling currency0 means true). */
export function zeroForOneFor(tokenIn: string, tokenOut: string): boolean {
  return BigInt(tokenIn) < BigInt(tokenOut);
}
