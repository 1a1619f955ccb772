import { getAddress } from 'ethers';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { CHECKSUM_CACHE_SIZE, checksumAddress, checksumCacheSize } from './checksum-address';

/** getAddress's answer: the checksummed address, or the error it throws. */
function outcome(fn: () => string): { value: string } | { error: string } {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('checksumAddress', () => {
  it('equals getAddress for random addresses in every case form, first call and memoised', () => {
    const r = seededRandom(0xc5);
    for (let i = 0; i < 500; i += 1) {
      const lower = `0x${r.bytes(20)}`;
      const expected = getAddress(lower);
      for (const form of [lower, expected, `0x${lower.slice(2).toUpperCase()}`, lower.slice(2)]) {
        expect(checksumAddress(form)).toBe(expected);
        expect(checksumAddress(form)).toBe(expected);
      }
    }
  });

  it('rejects what getAddress rejects, every time (a bad checksum is never memoised)', () => {
    const r = seededRandom(0xbad);
    let refused = 0;
    for (let i = 0; i < 500; i += 1) {
      const good = getAddress(`0x${r.bytes(20)}`);
      // Flip the case of one letter: almost always a wrong EIP-55 checksum.
      const letters = [...good.slice(2)].flatMap((c, at) => (/[a-fA-F]/.test(c) ? [at + 2] : []));
      const at = letters[r.int(letters.length)];
      const flipped =
        good.slice(0, at) +
        (good[at] === good[at].toLowerCase() ? good[at].toUpperCase() : good[at].toLowerCase()) +
        good.slice(at + 1);
      const expected = outcome(() => getAddress(flipped));
      if ('error' in expected) refused += 1;
      expect(outcome(() => checksumAddress(flipped))).toEqual(expected);
      expect(outcome(() => checksumAddress(flipped))).toEqual(expected);
    }
    expect(refused).toBeGreaterThan(450);
    for (const malformed of ['', '0x', '0x1234', `0x${'g'.repeat(40)}`, `0x${'a'.repeat(41)}`]) {
      expect(outcome(() => checksumAddress(malformed))).toEqual(
        outcome(() => getAddress(malformed)),
      );
      expect(() => checksumAddress(malformed)).toThrow();
    }
  });

  it(`keeps at most ${CHECKSUM_CACHE_SIZE} entries and stays correct after clearing`, () => {
    const r = seededRandom(0xf111);
    const addresses = Array.from({ length: CHECKSUM_CACHE_SIZE + 50 }, () => `0x${r.bytes(20)}`);
    for (const address of addresses) {
      checksumAddress(address);
      expect(checksumCacheSize()).toBeLessThanOrEqual(CHECKSUM_CACHE_SIZE);
    }
    expect(checksumCacheSize()).toBeLessThan(CHECKSUM_CACHE_SIZE);
    for (const address of addresses.slice(0, 100).concat(addresses.slice(-100)))
      expect(checksumAddress(address)).toBe(getAddress(address));
  });
});
