/**
 * Reproducible random inputs for the property-style loops that compare a hand-written encoder
 * with its library reference (issue 17): mulberry32, so a failure replays with the same seed.
 */
import { getAddress } from 'ethers';

export interface SeededRandom {
  /** An integer in [0, n). */
  int(n: number): number;
  bool(): boolean;
  /** n random bytes as lowercase hex, no 0x. */
  bytes(n: number): string;
  /** An unsigned integer below 2^bits with a random bit length; 0 and 2^bits - 1 come up often. */
  uint(bits: number): bigint;
  /** A random address, lowercase or EIP-55 checksummed. */
  address(): string;
}

export function seededRandom(seed: number): SeededRandom {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const bytes = (n: number) =>
    Array.from({ length: n }, () => int(256).toString(16).padStart(2, '0')).join('');
  const uint = (bits: number): bigint => {
    const r = int(20);
    if (r === 0) return 0n;
    if (r === 1) return (1n << BigInt(bits)) - 1n;
    const length = 1 + int(bits);
    return BigInt(`0x${bytes(Math.ceil(length / 8))}`) & ((1n << BigInt(length)) - 1n);
  };
  const address = () => {
    const hex = `0x${bytes(20)}`;
    return int(2) ? hex : getAddress(hex);
  };
  return { int, bool: () => int(2) === 1, bytes, uint, address };
}
