/**
 * Is the wallet a Safe? Two calls ride in the build's one batched eth_call (no round trip more,
 * for an EOA either): `masterCopy()`, which every SafeProxy answers itself with its singleton,
 * and `nonce()`, the Safe's next transaction nonce. Both may fail: an EOA answers them with no
 * data, another contract reverts or answers something else. The wallet is a Safe when its
 * singleton is Safe 1.4.1's (SafeL2 or Safe) at the canonical address and it has a nonce. Pure.
 *
 * A contract could answer these getters like a Safe: the build then offers a Safe transaction it
 * cannot execute, nothing worse; the relay checks the wallet's code before it sends anything.
 */
import { selectorsOf } from '../../chain/abi/selectors';
import { SAFE } from '../../chain/abi/safe';
import { encodeStaticCall } from '../../chain/encoding/abi-words';
import type { SafeContracts } from '../../chain/safe/safe-contracts';
import { checksumAddress } from '../../common/address/checksum-address';
import type { CallOutcome, ChainRead } from '../chain/defi-chain.port';

export interface SafeAccount {
  /** The Safe (the build's userAddress), checksummed. */
  address: string;
  /** The Safe's singleton (SafeL2 or Safe 1.4.1). */
  singleton: string;
  /** Safe.nonce(): the nonce of the next Safe transaction it executes. */
  nonce: bigint;
}

const SELECTOR = selectorsOf(SAFE, ['masterCopy', 'nonce']);

/** Keys of the two reads among an operation's own (they cannot collide with an operation's). */
export const SAFE_SINGLETON_READ = '__safeSingleton';
export const SAFE_NONCE_READ = '__safeNonce';

/** One 32-byte word, or null (no data, a revert, anything longer or shorter). */
function word(outcome: CallOutcome): bigint | null {
  return outcome.ok && outcome.returnData.length === 66 ? BigInt(outcome.returnData) : null;
}

function wordRead(wallet: string, selector: string): ChainRead<bigint | null> {
  return {
    call: { target: wallet, allowFailure: true, callData: encodeStaticCall(selector, []) },
    decode: word,
  };
}

export function safeAccountReads(wallet: string) {
  return {
    [SAFE_SINGLETON_READ]: wordRead(wallet, SELECTOR.masterCopy),
    [SAFE_NONCE_READ]: wordRead(wallet, SELECTOR.nonce),
  };
}

/** The Safe the two reads found at `wallet`, or null. */
export function safeAccountOf(
  safe: SafeContracts,
  wallet: string,
  singletonWord: bigint | null,
  nonce: bigint | null,
): SafeAccount | null {
  if (singletonWord === null || nonce === null || singletonWord >> 160n !== 0n) return null;
  const singleton = checksumAddress(`0x${singletonWord.toString(16).padStart(40, '0')}`);
  if (singleton !== safe.safeL2Singleton && singleton !== safe.safeSingleton) return null;
  return { address: checksumAddress(wallet), singleton, nonce };
}
