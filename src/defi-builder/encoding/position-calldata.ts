/**
 * PositionManager calldata for an existing position, from @uniswap/v4-sdk's V4PositionManager
 * (pure): increase (INCREASE_LIQUIDITY + CLOSE_CURRENCY x2: accrued fees may leave one side owed
 * to the owner, where SETTLE_PAIR would revert), decrease (DECREASE_LIQUIDITY, or BURN_POSITION
 * for the whole position, + TAKE_PAIR to the sender) and collect (DECREASE_LIQUIDITY of 0 +
 * TAKE_PAIR to the recipient).
 */
import { Percent } from '@uniswap/sdk-core';
import { Position, V4PositionManager } from '@uniswap/v4-sdk';

/** Basis points in one: slippage and liquidity shares are given in bps. */
export const BPS = 10_000;

export interface PositionCallInput {
  tokenId: bigint;
  deadline: number;
}

/**
 * `position` holds the liquidity to ADD, priced at the current pool price. `hookData` (issue 54:
 * hook v3's authorization, bound to the liquidity added) goes to INCREASE_LIQUIDITY; default empty.
 */
export function encodeIncreaseCalldata(
  position: Position,
  input: PositionCallInput & { slippageBps: number; hookData?: string },
): string {
  return V4PositionManager.addCallParameters(position, {
    tokenId: input.tokenId.toString(),
    slippageTolerance: new Percent(input.slippageBps, BPS),
    deadline: input.deadline.toString(),
    ...(input.hookData && input.hookData !== '0x' ? { hookData: input.hookData } : {}),
  }).calldata;
}

/** `position` is the whole position; `liquidity` the part to remove (all of it with burn). */
export function encodeDecreaseCalldata(
  position: Position,
  input: PositionCallInput & { liquidity: bigint; slippageBps: number; burn: boolean },
): string {
  const whole = BigInt(position.liquidity.toString());
  return V4PositionManager.removeCallParameters(position, {
    tokenId: input.tokenId.toString(),
    liquidityPercentage: input.burn
      ? new Percent(1, 1)
      : new Percent(input.liquidity.toString(), whole.toString()),
    slippageTolerance: new Percent(input.slippageBps, BPS),
    deadline: input.deadline.toString(),
    burnToken: input.burn,
  }).calldata;
}

export function encodeCollectCalldata(
  position: Position,
  input: PositionCallInput & { recipient: string },
): string {
  return V4PositionManager.collectCallParameters(position, {
    tokenId: input.tokenId.toString(),
    recipient: input.recipient,
    deadline: input.deadline.toString(),
    hookData: '0x',
    slippageTolerance: new Percent(0), // unused by a collect: nothing is added or removed
  }).calldata;
}
