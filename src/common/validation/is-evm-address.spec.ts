import { checksumSuggestion, isEvmAddress } from './is-evm-address';

describe('isEvmAddress', () => {
  const checksummed = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

  it.each([
    [checksummed, true],
    [checksummed.toLowerCase(), true],
    ['0x' + checksummed.slice(2).toUpperCase(), true],
    ['0x70997970c51812DC3A010C7d01b50e0d17dc79C8', false], // mixed case, wrong checksum
    ['70997970C51812dc3A010C7d01b50e0d17dc79C8', false],
    ['0x70997970C51812dc3A010C7d01b50e0d17dc79C', false],
    ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8a', false],
    ['0xg0997970C51812dc3A010C7d01b50e0d17dc79C8', false],
    [42, false],
    [null, false],
  ])('%p -> %p', (value, expected) => {
    expect(isEvmAddress(value)).toBe(expected);
  });
});

describe('isEvmAddress on repeated inputs (memoised checksums)', () => {
  it('gives the same answer on every call, valid or not', () => {
    const good = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const bad = '0x70997970c51812DC3A010C7d01b50e0d17dc79C8';
    for (let i = 0; i < 3; i += 1) {
      expect(isEvmAddress(good)).toBe(true);
      expect(isEvmAddress(bad)).toBe(false);
      expect(checksumSuggestion(bad)).toBe(good);
      expect(checksumSuggestion(good)).toBeUndefined();
    }
  });
});
