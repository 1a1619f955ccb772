import { addressWord, intWord, uintWord } from '../../chain/encoding/abi-words';
import { PoolKey, poolKeyTuple } from '../../chain/encoding/pool-key';

// One pool-key builder, in the chain layer (the deployment seeds pools with it too).
export { poolIdOf, poolKeyOf, poolKeyTuple } from '../../chain/encoding/pool-key';
export type { PoolKey } from '../../chain/encoding/pool-key';

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
