/**
 * EIP-55 checksummed addresses, memoised. ethers' getAddress hashes (keccak) on every call, and a
 * build checksums the same few addresses (the wallet, the tokens, Permit2, the routers) a dozen
 * times; the answer for a given input string never changes, so it is kept in a bounded map.
 */
import { getAddress } from 'ethers';

/** Entries kept before the map is cleared (a few hundred KB at most). */
export const CHECKSUM_CACHE_SIZE = 10_000;

const cache = new Map<string, string>();

/**
 * ethers' getAddress, memoised per input string: the same result, and the same errors (a wrong
 * mixed-case checksum, a malformed address) since only what getAddress accepted is ever stored.
 */
export function checksumAddress(address: string): string {
  let checksummed = cache.get(address);
  if (checksummed === undefined) {
    checksummed = getAddress(address);
    if (cache.size >= CHECKSUM_CACHE_SIZE) cache.clear();
    cache.set(address, checksummed);
  }
  return checksummed;
}

/** Entries currently memoised (for tests). */
export function checksumCacheSize(): number {
  return cache.size;
}
