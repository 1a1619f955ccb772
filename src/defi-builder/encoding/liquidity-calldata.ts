/**
 * PositionManager calldata for a new position: modifyLiquidities(unlockData, deadline) where
 * unlockData is the v4 action plan MINT_POSITION -> SETTLE_PAIR, plus the pure math that turns
 * the caller's token amounts into a liquidity at the pool's current price.
 */
import { Actions, V4Planner } from '@uniswap/v4-sdk';
import { maxLiquidityForAmounts, SqrtPriceMath, TickMath } from '@uniswap/v3-sdk';
import { getAddress } from 'ethers';
import JSBI from 'jsbi';
import { POSITION_MANAGER } from '../../chain/abi/uniswap-v4';
import { PoolKey, poolKeyTuple } from './pool-key';

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
const sqrtAt = (tick: number) => TickMath.getSqrtRatioAtTick(tick);

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
}

export function encodeMintCalldata(input: MintCalldataInput): string {
  const [currency0, currency1, fee, tickSpacing, hooks] = poolKeyTuple(input.poolKey);
  const planner = new V4Planner();
  // Decimal strings: the v4-sdk encodes with its bundled ethers v5.
  planner.addAction(Actions.MINT_POSITION, [
    { currency0, currency1, fee, tickSpacing, hooks },
    input.tickLower,
    input.tickUpper,
    input.liquidity.toString(),
    input.amount0Max.toString(),
    input.amount1Max.toString(),
    getAddress(input.owner),
    '0x',
  ]);
  planner.addAction(Actions.SETTLE_PAIR, [currency0, currency1]);
  return POSITION_MANAGER.encodeFunctionData('modifyLiquidities', [
    planner.finalize(),
    input.deadline,
  ]);
}
