/** Pure pool math used to initialize and seed the WETH/tUSDC pool (no Nest, no I/O). */
export const Q96 = 1n << 96n;
/** v4-core TickMath.MIN_TICK / MAX_TICK. */
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;

export function isqrt(value: bigint): bigint {
  if (value < 0n) throw new RangeError('isqrt of a negative number');
  if (value < 2n) return value;
  // Newton from above converges monotonically down to floor(sqrt). The float estimate may lie
  // below the root by its rounding error (2^-52 relative): start above it by more than that.
  const estimate = BigInt(Math.ceil(Math.sqrt(Number(value))));
  let x = estimate + (estimate >> 40n) + 1n;
  for (;;) {
    const y = (x + value / x) >> 1n;
    if (y >= x) break;
    x = y;
  }
  while (x * x > value) x -= 1n;
  while ((x + 1n) * (x + 1n) <= value) x += 1n;
  return x;
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

/** v4-core TickMath.MIN_SQRT_PRICE / MAX_SQRT_PRICE: PoolManager.initialize accepts [min, max). */
export const MIN_SQRT_PRICE = 4295128739n;
export const MAX_SQRT_PRICE = 1461446703485210103287273052203988822378723970342n;

/** A positive decimal number as a fraction: "3000" -> 3000/1, "2999.5" -> 29995/10. */
export function parseDecimal(text: string): { numerator: bigint; denominator: bigint } {
  const match = /^(\d{1,30})(?:\.(\d{1,30}))?$/.exec(text.trim());
  if (!match) throw new RangeError(`not a positive decimal number: ${JSON.stringify(text)}`);
  const fraction = match[2] ?? '';
  const numerator = BigInt(match[1] + fraction);
  if (numerator === 0n) throw new RangeError(`must be above zero: ${JSON.stringify(text)}`);
  return { numerator, denominator: 10n ** BigInt(fraction.length) };
}

/** A decimal amount in a token's smallest units ("0.1" WETH -> 10^17); refuses extra digits. */
export function parseUnitsExact(text: string, decimals: number): bigint {
  const { numerator, denominator } = parseDecimal(text);
  const scaled = numerator * 10n ** BigInt(decimals);
  if (scaled % denominator !== 0n)
    throw new RangeError(`${text} has more than ${decimals} decimals`);
  return scaled / denominator;
}

/**
 * sqrtPriceX96 of a human price: `price` whole token1 per whole token0 (e.g. "3000" tUSDC per
 * WETH), each token with its decimals. Refuses a price outside what PoolManager.initialize takes.
 */
export function sqrtPriceX96FromPrice(price: string, decimals0: number, decimals1: number): bigint {
  const { numerator, denominator } = parseDecimal(price);
  const sqrtPriceX96 = sqrtPriceX96FromRatio(
    numerator * 10n ** BigInt(decimals1),
    denominator * 10n ** BigInt(decimals0),
  );
  if (sqrtPriceX96 < MIN_SQRT_PRICE || sqrtPriceX96 >= MAX_SQRT_PRICE)
    throw new RangeError(`price ${price} is outside the range a v4 pool can be initialized at`);
  return sqrtPriceX96;
}

/** The human price (token1 per token0) of a sqrtPriceX96, for display: a float. */
export function priceFromSqrtPriceX96(
  sqrtPriceX96: bigint,
  decimals0: number,
  decimals1: number,
): number {
  const ratio = Number(sqrtPriceX96) / Number(Q96);
  return ratio * ratio * 10 ** (decimals0 - decimals1);
}
