import { randomBytes } from 'node:crypto';

/**
 * Nonces for hook v3's unordered nonce bitmap (Permit2's scheme: word = nonce >> 8, bit =
 * nonce & 255). A word's first use costs a fresh storage slot (~22,100 gas), every later bit of
 * the same word a warm-ish rewrite (~5,000): so one wallet's nonces should fill words in order.
 *
 * No coordination: every instance (and every start) draws a random 40-bit prefix, and counts per
 * trader below it (24 bits: 16.7 M authorizations per wallet per start). nonce = prefix << 24 |
 * counter. Two instances never share a word (the prefix differs with probability 1 - 2^-40), so
 * they never hand out the same nonce; an instance that restarts starts a new word.
 */
export class NonceSource {
  private readonly prefix: bigint;
  private readonly counters = new Map<string, number>();

  constructor(prefix: bigint = BigInt(`0x${randomBytes(5).toString('hex')}`) | 1n) {
    this.prefix = prefix;
  }

  /** The next nonce of `trader` (checksummed or lower-case: one counter per address). */
  next(trader: string): bigint {
    const key = trader.toLowerCase();
    const n = this.counters.get(key) ?? 0;
    if (n >= 1 << 24)
      throw new Error('nonce counter exhausted for this wallet; restart the instance');
    this.counters.set(key, n + 1);
    return (this.prefix << 24n) | BigInt(n);
  }
}
