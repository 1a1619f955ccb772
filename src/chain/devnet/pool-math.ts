/** Pure pool math used to initialize and seed the devnet pool (no Nest, no I/O). */
export const Q96 = 1n << 96n;
/** v4-core TickMath.MIN_TICK / MAX_TICK. */
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;

export function isqrt(value: bigint): bigint {
  if (value < 0n) throw new RangeError('isqrt of a negative number');
  if (value < 2n) return value;
  let x = BigInt(Math.floor(Math.sqrt(Number(value))));
  // Newton steps from the float estimate: exact floor(sqrt) for any size.
  for (;;) {
    const y = (x + value / x) >> 1n;
    if (y >= x) {
      while (x * x > value) x -= 1n;
      while ((x + 1n) * (x + 1n) <= value) x += 1n;
      return x;
    }
    x = y;
  }
}

/**
 * sqrtPriceX96 for a price given as `amount1Units` of token1 per `amount0Units` of token0
 * (raw smallest units: e.g. 3000e6 tUSDC units per 1e18 wei of WETH).
 */
export function sqrtPriceX96FromRatio(amount1Units: bigint, amount0Units: bigint): bigint {
  return isqrt((amount1Units << 192n) / amount0Units);
}

/** The widest range usable with a tick spacing (ticks must be multiples of it). */
export function fullRangeTicks(tickSpacing: number): { tickLower: number; tickUpper: number } {
  const upper = Math.floor(MAX_TICK / tickSpacing) * tickSpacing;
  return { tickLower: -upper, tickUpper: upper };
}

/**
 * A full-range liquidity that needs at most `amount0`/`amount1` at the current price. Treating
 * the range bounds as 0 and infinity overestimates what the position needs, so the real
 * amounts pulled by the PositionManager always stay within these maxima.
 */
export function fullRangeLiquidityForAmounts(
  sqrtPriceX96: bigint,
  amount0: bigint,
  amount1: bigint,
): bigint {
  const fromAmount0 = (amount0 * sqrtPriceX96) / Q96;
  const fromAmount1 = (amount1 * Q96) / sqrtPriceX96;
  return fromAmount0 < fromAmount1 ? fromAmount0 : fromAmount1;
}
