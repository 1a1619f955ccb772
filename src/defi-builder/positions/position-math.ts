/**
 * A position priced at the pool's current price with @uniswap/v4-sdk's Pool and Position (pure):
 * what it holds now, and the slippage-bounded amounts of an increase or a decrease.
 */
import { Percent, Token } from '@uniswap/sdk-core';
import { TickMath } from '@uniswap/v3-sdk';
import { Pool, Position } from '@uniswap/v4-sdk';
import JSBI from 'jsbi';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';
import type { Slot0 } from '../encoding/market-reads';
import { BPS } from '../encoding/position-calldata';

export interface PositionRange {
  tickLower: number;
  tickUpper: number;
  liquidity: bigint;
}

const big = (v: JSBI) => BigInt(v.toString());

/** The network's pool at `price` (the sdk derives its tick from sqrtPriceX96, as core does after a swap). */
export function sdkPool(network: NetworkDefinition, price: Slot0): Pool {
  const token = (address: string) => {
    const info = Object.values(network.tokens).find((t) => t.address === address);
    return new Token(network.chainId, address, info?.decimals ?? 18);
  };
  const { currency0, currency1, fee, tickSpacing, hooks } = network.pool;
  return new Pool(
    token(currency0),
    token(currency1),
    fee,
    tickSpacing,
    hooks,
    price.sqrtPriceX96.toString(),
    '0', // in-range liquidity: only swaps need it
    TickMath.getTickAtSqrtRatio(JSBI.BigInt(price.sqrtPriceX96.toString())),
  );
}

export function sdkPosition(pool: Pool, range: PositionRange): Position {
  return new Position({
    pool,
    liquidity: range.liquidity.toString(),
    tickLower: range.tickLower,
    tickUpper: range.tickUpper,
  });
}

/** The token amounts the position's liquidity is worth at the current price (rounded down). */
export function amountsOf(position: Position): { amount0: bigint; amount1: bigint } {
  return { amount0: big(position.amount0.quotient), amount1: big(position.amount1.quotient) };
}

/** Most an increase may take if the price moves within the slippage (sdk mintAmountsWithSlippage). */
export function maxAmountsIn(
  position: Position,
  slippageBps: number,
): { amount0: bigint; amount1: bigint } {
  const max = position.mintAmountsWithSlippage(new Percent(slippageBps, BPS));
  return { amount0: big(max.amount0), amount1: big(max.amount1) };
}

/** Least a decrease must return if the price moves within the slippage (sdk burnAmountsWithSlippage). */
export function minAmountsOut(
  position: Position,
  slippageBps: number,
): { amount0: bigint; amount1: bigint } {
  const min = position.burnAmountsWithSlippage(new Percent(slippageBps, BPS));
  return { amount0: big(min.amount0), amount1: big(min.amount1) };
}

/** core Pool.modifyLiquidity: in range when tickLower <= tick < tickUpper. */
export function isInRange(range: PositionRange, tick: number): boolean {
  return tick >= range.tickLower && tick < range.tickUpper;
}

/**
 * The sdk asserts its inputs (tiny-invariant, ethers v5 range checks): what it refuses is a
 * request the pool cannot serve, answered 400 BUILD_FAILED, never a 500.
 */
export function withSdk<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const reason = err instanceof Error ? err.message.slice(0, 160) : 'refused';
    throw new ApiError('BUILD_FAILED', `Could not build the ${what}: ${reason}`, {
      hint: 'Use smaller amounts or a smaller share; GET /api/v1/defi/positions/<tokenId> shows the position.',
    });
  }
}
