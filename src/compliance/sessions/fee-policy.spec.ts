import {
  FeeOverCapError,
  feesWithinCap,
  MIN_PRIORITY_FEE_WEI,
  minimumBump,
  replacementFees,
  suggestFees,
} from './fee-policy';

const GWEI = 1_000_000_000n;
const hex = (n: bigint) => `0x${n.toString(16)}`;

describe('attester fee policy', () => {
  it('offers 2 x the next base fee + the median recent tip', () => {
    const fees = suggestFees({
      baseFeePerGas: [hex(3n * GWEI), hex(4n * GWEI), hex(5n * GWEI)],
      reward: [[hex(2n * GWEI)], [hex(1n * GWEI)], [hex(3n * GWEI)]],
    });
    expect(fees).toEqual({
      nextBaseFee: 5n * GWEI,
      maxPriorityFeePerGas: 2n * GWEI,
      maxFeePerGas: 12n * GWEI,
    });
  });

  it('tips at least the floor when recent blocks were empty (zero tips)', () => {
    const fees = suggestFees({ baseFeePerGas: ['0x7', '0x7'], reward: [['0x0']] });
    expect(fees.maxPriorityFeePerGas).toBe(MIN_PRIORITY_FEE_WEI);
    expect(fees.maxFeePerGas).toBe(14n + MIN_PRIORITY_FEE_WEI);
  });

  it('clamps maxFee to the cap, and refuses only when the next block costs more than the cap', () => {
    const suggested = {
      nextBaseFee: 10n * GWEI,
      maxPriorityFeePerGas: GWEI,
      maxFeePerGas: 21n * GWEI,
    };
    expect(feesWithinCap(suggested, 15n * GWEI)).toEqual({
      maxFeePerGas: 15n * GWEI,
      maxPriorityFeePerGas: GWEI,
    });
    expect(() => feesWithinCap(suggested, 10n * GWEI)).toThrow(FeeOverCapError);
  });

  it('bumps both fees by more than 10% (geth and EDR refuse less)', () => {
    expect(minimumBump({ maxFeePerGas: 100n, maxPriorityFeePerGas: 0n })).toEqual({
      maxFeePerGas: 111n,
      maxPriorityFeePerGas: 1n,
    });
  });

  it('replaces with at least the bump and at least the fees asked now, under the cap, else not at all', () => {
    const previous = { maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI };
    const calm = { nextBaseFee: GWEI, maxPriorityFeePerGas: GWEI, maxFeePerGas: 3n * GWEI };
    expect(replacementFees(previous, calm, 100n * GWEI)).toEqual(minimumBump(previous));
    const risen = { nextBaseFee: 20n * GWEI, maxPriorityFeePerGas: GWEI, maxFeePerGas: 41n * GWEI };
    expect(replacementFees(previous, risen, 100n * GWEI)?.maxFeePerGas).toBe(41n * GWEI);
    expect(replacementFees(previous, risen, 30n * GWEI)?.maxFeePerGas).toBe(30n * GWEI);
    expect(replacementFees(previous, calm, 11n * GWEI)).toBeNull();
  });
});
