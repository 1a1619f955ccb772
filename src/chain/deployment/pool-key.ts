/** The v4 PoolKey as the deployment builds it, and its id (v4-core PoolIdLibrary). */
import { AbiCoder, keccak256 } from 'ethers';

export interface PoolKey {
  currency0: string;
  currency1: string;
  fee: number;
  tickSpacing: number;
  hooks: string;
}

export function poolKeyTuple(key: PoolKey): [string, string, number, number, string] {
  return [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks];
}

/** v4-core PoolIdLibrary: keccak256(abi.encode(key)). */
export function poolIdOf(key: PoolKey): string {
  return keccak256(
    AbiCoder.defaultAbiCoder().encode(
      ['address', 'address', 'uint24', 'int24', 'address'],
      poolKeyTuple(key),
    ),
  );
}
