/**
 * PositionManager calldata for a new position: modifyLiquidities(unlockData, deadline) where
 * unlockData is the v4 action plan MINT_POSITION -> SETTLE_PAIR, plus the pure math that turns
 * the caller's token amounts into a liquidity at the pool's current price.
 *
 * The calldata is what @uniswap/v4-sdk's V4Planner and PositionManager.modifyLiquidities encode,
 * written word by word (`npm run bench:encoders`: the planner and ethers' AbiCoders cost ~0.5 ms per mint);
 * liquidity-calldata.spec.ts asserts byte equality against the planner.
 */
import { selectorOf } from '../../chain/abi/selectors';
import { Actions } from '@uniswap/v4-sdk';
import { maxLiquidityForAmounts, SqrtPriceMath, TickMath } from '@uniswap/v3-sdk';
import JSBI from 'jsbi';
import { POSITION_MANAGER } from '../../chain/abi/uniswap-v4';
import {
  addressWord,
  bytesBody,
  encodedBytesArrayBody,
  encodedBytesBody,
  encodeParts,
  intWord,
  sizeWord,
  uintWord,
} from '../../chain/encoding/abi-words';
import { checksumAddress } from '../../common/address/checksum-address';
import { PoolKey, poolKeyWords } from './pool-key';

/** v4-core TickMath.MIN_TICK / MAX_TICK (same constants as v3). */
export const MIN_TICK = TickMath.MIN_TICK;
export const MAX_TICK = TickMath.MAX_TICK;

export type TickRule = 'ORDER' | 'BOUNDS' | 'SPACING';

export interface TickViolation {
  rule: TickRule;
  message: string;
  hint: string;
}

/** Checks the pool's tick rules in a fixed order; returns the first one broken, or null. */
export function checkTickRange(
  tickLower: number,
  tickUpper: number,
  tickSpacing: number,
): TickViolation | null {
  if (tickLower >= tickUpper) {
    return {
      rule: 'ORDER',
      message: `tickLower (${tickLower}) must be lower than tickUpper (${tickUpper})`,
      hint: 'Send tickLower < tickUpper (a range with at least one tickSpacing between them).',
    };
  }
  if (tickLower < MIN_TICK || tickUpper > MAX_TICK) {
    return {
      rule: 'BOUNDS',
      message: `Ticks must lie within [${MIN_TICK}, ${MAX_TICK}] (got ${tickLower}..${tickUpper})`,
      hint: `Keep both ticks within MIN_TICK ${MIN_TICK} and MAX_TICK ${MAX_TICK}; the widest range for tickSpacing ${tickSpacing} is ${-usableMaxTick(tickSpacing)}..${usableMaxTick(tickSpacing)}.`,
    };
  }
  const off = [tickLower, tickUpper].filter((t) => t % tickSpacing !== 0);
  if (off.length > 0) {
    return {
      rule: 'SPACING',
      message: `Ticks must be multiples of the pool tickSpacing ${tickSpacing} (not: ${off.join(', ')})`,
      hint: `Round each tick to a multiple of ${tickSpacing}, e.g. ${off.map((t) => `${t} -> ${Math.round(t / tickSpacing) * tickSpacing}`).join(', ')}.`,
    };
  }
  return null;
}

export function usableMaxTick(tickSpacing: number): number {
  return Math.floor(MAX_TICK / tickSpacing) * tickSpacing;
}

export interface PoolPrice {
  sqrtPriceX96: bigint;
  tick: number;
}

const big = (v: bigint) => JSBI.BigInt(v.toString());
/** Ticks whose sqrt price is kept (a few MB at most); the map is cleared when full. */
const SQRT_AT_CACHE_SIZE = 10_000;
const sqrtAtCache = new Map<number, JSBI>();

/**
 * TickMath.getSqrtRatioAtTick, memoised per tick (issue 44): a liquidity build asks it for the
 * same two ticks up to 34 times (JSBI arithmetic, ~3 % of the build's CPU), and ranges repeat
 * across requests. JSBI values are never mutated, so one can be shared. The spec compares it with
 * TickMath over random ticks.
 */
export function sqrtAt(tick: number): JSBI {
  let sqrt = sqrtAtCache.get(tick);
  if (sqrt === undefined) {
    sqrt = TickMath.getSqrtRatioAtTick(tick);
    if (sqrtAtCache.size >= SQRT_AT_CACHE_SIZE) sqrtAtCache.clear();
    sqrtAtCache.set(tick, sqrt);
  }
  return sqrt;
}

/**
 * The token amounts v4-core's Pool.modifyLiquidity takes for `liquidity` (rounded up, and
 * branching on the slot0 tick exactly as core does).
 */
export function mintAmountsFor(
  liquidity: bigint,
  price: PoolPrice,
  tickLower: number,
  tickUpper: number,
): { amount0: bigint; amount1: bigint } {
  const L = big(liquidity);
  const a = sqrtAt(tickLower);
  const b = sqrtAt(tickUpper);
  const p = big(price.sqrtPriceX96);
  const n = (v: JSBI) => BigInt(v.toString());
  if (price.tick < tickLower)
    return { amount0: n(SqrtPriceMath.getAmount0Delta(a, b, L, true)), amount1: 0n };
  if (price.tick < tickUpper) {
    return {
      amount0: n(SqrtPriceMath.getAmount0Delta(p, b, L, true)),
      amount1: n(SqrtPriceMath.getAmount1Delta(a, p, L, true)),
    };
  }
  return { amount0: 0n, amount1: n(SqrtPriceMath.getAmount1Delta(a, b, L, true)) };
}

/**
 * The largest liquidity whose mint needs at most amount0/amount1 at the current price (v3/v4 SDK
 * maxLiquidityForAmounts, full precision), stepped down when core's round-up would need one unit
 * more than the caller allowed (that would revert with MaximumAmountExceeded).
 */
export function liquidityForAmounts(
  price: PoolPrice,
  tickLower: number,
  tickUpper: number,
  amount0: bigint,
  amount1: bigint,
): bigint {
  let liquidity = BigInt(
    maxLiquidityForAmounts(
      big(price.sqrtPriceX96),
      sqrtAt(tickLower),
      sqrtAt(tickUpper),
      big(amount0),
      big(amount1),
      true,
    ).toString(),
  );
  for (let i = 0; i < 16 && liquidity > 0n; i++) {
    const need = mintAmountsFor(liquidity, price, tickLower, tickUpper);
    if (need.amount0 <= amount0 && need.amount1 <= amount1) return liquidity;
    liquidity -= 1n + liquidity / 1_000_000_000n;
  }
  return liquidity > 0n ? liquidity : 0n;
}

export interface MintCalldataInput {
  poolKey: PoolKey;
  tickLower: number;
  tickUpper: number;
  liquidity: bigint;
  amount0Max: bigint;
  amount1Max: bigint;
  owner: string;
  deadline: bigint;
  /** Issue 54: the hook's hookData (hook v3's authorization); absent or '0x': empty. */
  hookData?: string;
}

const MODIFY_LIQUIDITIES = selectorOf(POSITION_MANAGER, 'modifyLiquidities');
const MINT_ACTIONS =
  Actions.MINT_POSITION.toString(16).padStart(2, '0') +
  Actions.SETTLE_PAIR.toString(16).padStart(2, '0');
/** MINT_POSITION's hookData: its offset after the 12 head words, then (empty: length 0). */
const HOOK_DATA_AT = sizeWord(12 * 32);
const EMPTY_HOOK_DATA = HOOK_DATA_AT + sizeWord(0);

export function encodeMintCalldata(input: MintCalldataInput): string {
  const pool = poolKeyWords(input.poolKey);
  const mint =
    pool.key +
    intWord(BigInt(input.tickLower), 24) +
    intWord(BigInt(input.tickUpper), 24) +
    uintWord(input.liquidity) +
    uintWord(input.amount0Max, 128) +
    uintWord(input.amount1Max, 128) +
    addressWord(checksumAddress(input.owner)) +
    (input.hookData === undefined || input.hookData === '0x'
      ? EMPTY_HOOK_DATA
      : HOOK_DATA_AT + bytesBody(input.hookData));
  const settlePair = pool.currency0 + pool.currency1;
  const unlockData = encodeParts([
    { tail: encodedBytesBody(MINT_ACTIONS) },
    { tail: encodedBytesArrayBody([mint, settlePair]) },
  ]);
  return `${MODIFY_LIQUIDITIES}${encodeParts([
    { tail: encodedBytesBody(unlockData) },
    uintWord(input.deadline),
  ])}`;
}
