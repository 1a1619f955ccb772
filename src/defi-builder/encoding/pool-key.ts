import { AbiCoder, getAddress, keccak256 } from 'ethers';
import { POOL_KEY_TUPLE } from './abis';

export interface PoolKey {
  currency0: string;
  currency1: string;
  fee: number;
  tickSpacing: number;
  hooks: string;
}

/** v4-core PoolIdLibrary.toId: keccak256(abi.encode(poolKey)). */
export function poolIdOf(key: PoolKey): string {
  return keccak256(AbiCoder.defaultAbiCoder().encode([POOL_KEY_TUPLE], [poolKeyTuple(key)]));
}

export function poolKeyTuple(key: PoolKey): [string, string, number, number, string] {
  return [getAddress(key.currency0), getAddress(key.currency1), key.fee, key.tickSpacing, getAddress(key.hooks)];
}

/** Spec §2.1 rule 3: zeroForOne follows the address order (selling currency0 means true). */
export function zeroForOneFor(tokenIn: string, tokenOut: string): boolean {
  return BigInt(tokenIn) < BigInt(tokenOut);
}
