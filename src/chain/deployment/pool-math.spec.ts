import {
  fullRangeLiquidityForAmounts,
  fullRangeTicks,
  isqrt,
  MAX_TICK,
  MIN_SQRT_PRICE,
  parseDecimal,
  parseUnitsExact,
  priceFromSqrtPriceX96,
  Q96,
  sqrtPriceX96FromPrice,
  sqrtPriceX96FromRatio,
} from './pool-math';

// v4-core test/utils/Constants.sol (@uniswap/v4-core): the prices its own tests initialize at.
const SQRT_PRICE_1_1 = 79228162514264337593543950336n;
const SQRT_PRICE_1_2 = 56022770974786139918731938227n;
const SQRT_PRICE_2_1 = 112045541949572279837463876454n;
const SQRT_PRICE_1_4 = 39614081257132168796771975168n;
const SQRT_PRICE_121_100 = 87150978765690771352898345369n;

describe('pool math', () => {
  it("matches v4-core's sqrt price constants", () => {
    expect(sqrtPriceX96FromRatio(1n, 1n)).toBe(SQRT_PRICE_1_1);
    expect(sqrtPriceX96FromRatio(1n, 2n)).toBe(SQRT_PRICE_1_2);
    expect(sqrtPriceX96FromRatio(2n, 1n)).toBe(SQRT_PRICE_2_1);
    expect(sqrtPriceX96FromRatio(1n, 4n)).toBe(SQRT_PRICE_1_4);
    expect(sqrtPriceX96FromRatio(121n, 100n)).toBe(SQRT_PRICE_121_100);
  });

  it('prices 1 WETH = 3000 tUSDC (18 and 6 decimals) as floor(sqrt(3000e6 / 1e18) * 2^96)', () => {
    // Python: math.isqrt((3000 * 10**6 << 192) // 10**18)
    expect(sqrtPriceX96FromPrice('3000', 18, 6)).toBe(4339505179874779489431521n);
    expect(sqrtPriceX96FromPrice('3000', 18, 6)).toBe(
      sqrtPriceX96FromRatio(3000n * 10n ** 6n, 10n ** 18n),
    );
    expect(priceFromSqrtPriceX96(4339505179874779489431521n, 18, 6)).toBeCloseTo(3000, 6);
    expect(sqrtPriceX96FromPrice('1', 18, 18)).toBe(Q96);
  });

  it('refuses a price a pool cannot be initialized at', () => {
    expect(() => sqrtPriceX96FromPrice('0.000000000000000000000000000001', 18, 0)).toThrow(
      /outside the range/,
    );
    expect(sqrtPriceX96FromRatio(1n, 2n ** 130n)).toBeLessThan(MIN_SQRT_PRICE);
  });

  it('computes exact integer square roots', () => {
    expect(isqrt(0n)).toBe(0n);
    expect(isqrt(10n ** 40n)).toBe(10n ** 20n);
    expect(isqrt(10n ** 40n - 1n)).toBe(10n ** 20n - 1n);
    // Large values whose float estimate lies below the root (a walk of one unit at a time used to
    // take ~10^13 steps for sqrtPriceX96 ratios of 6-decimal pairs).
    for (const root of [76237334925016554223603117715n, 35431911422859142059220343232145201n]) {
      expect(isqrt(root * root)).toBe(root);
      expect(isqrt(root * root - 1n)).toBe(root - 1n);
      expect(isqrt((root + 1n) * (root + 1n) - 1n)).toBe(root);
    }
    expect(isqrt((1n << 255n) + 12345n) ** 2n <= (1n << 255n) + 12345n).toBe(true);
    expect(() => isqrt(-1n)).toThrow(RangeError);
  });

  it('uses the widest range the tick spacing allows', () => {
    expect(fullRangeTicks(60)).toEqual({ tickLower: -887220, tickUpper: 887220 });
    expect(fullRangeTicks(1)).toEqual({ tickLower: -MAX_TICK, tickUpper: MAX_TICK });
  });

  it('sizes full-range liquidity by the scarcer side', () => {
    // At price 1 (sqrtP = 2^96), L = min(amount0, amount1).
    expect(fullRangeLiquidityForAmounts(Q96, 5n, 7n)).toBe(5n);
    expect(fullRangeLiquidityForAmounts(Q96, 9n, 7n)).toBe(7n);
    // The embedded devnet's seed: 1000 WETH and 3,000,000 tUSDC at 3000.
    const p = sqrtPriceX96FromPrice('3000', 18, 6);
    expect(fullRangeLiquidityForAmounts(p, 1000n * 10n ** 18n, 3_000_000n * 10n ** 6n)).toBe(
      54772255750516611n, // Python: min(a0 * p // 2**96, a1 * 2**96 // p)
    );
  });

  it('parses decimal amounts exactly', () => {
    expect(parseDecimal('2999.5')).toEqual({ numerator: 29995n, denominator: 10n });
    expect(parseUnitsExact('0.1', 18)).toBe(10n ** 17n);
    expect(parseUnitsExact('3000000', 6)).toBe(3_000_000n * 10n ** 6n);
    expect(() => parseUnitsExact('0.0000001', 6)).toThrow(/more than 6 decimals/);
    expect(() => parseDecimal('-1')).toThrow(RangeError);
    expect(() => parseDecimal('0')).toThrow(/above zero/);
    expect(() => parseDecimal('1e3')).toThrow(RangeError);
  });
});
