/**
 * UniversalRouter calldata for an exact-input single-pool v4 swap: execute(V4_SWAP) whose input is
 * a V4Planner plan SWAP_EXACT_IN_SINGLE -> SETTLE_ALL(currencyIn) -> TAKE_ALL(currencyOut).
 *
 * The planner stays on its default UR version (2.0 ExactInputSingleParams, no minHopPriceX36):
 * the UniversalRouter 2.1.0 we deploy (npm artifact) decodes that layout; the 2.1.1 one reverts.
 */
import { Actions, V4Planner } from '@uniswap/v4-sdk';
import { hexlify } from 'ethers';
import { UNIVERSAL_ROUTER } from '../../chain/abi/uniswap-v4';
import { PoolKey, poolKeyTuple } from './pool-key';

/** universal-router contracts/libraries/Commands.sol */
export const V4_SWAP_COMMAND = 0x10;
export const BPS_DENOMINATOR = 10_000n;

export interface SwapCalldataInput {
  poolKey: PoolKey;
  zeroForOne: boolean;
  amountIn: bigint;
  amountOutMinimum: bigint;
  deadline: bigint;
}

export function encodeSwapCalldata(input: SwapCalldataInput): string {
  const [currency0, currency1, fee, tickSpacing, hooks] = poolKeyTuple(input.poolKey);
  const [currencyIn, currencyOut] = input.zeroForOne
    ? [currency0, currency1]
    : [currency1, currency0];
  const planner = new V4Planner();
  // The v4-sdk bundles ethers v5: decimal strings are the one number form both versions share.
  planner.addAction(Actions.SWAP_EXACT_IN_SINGLE, [
    {
      poolKey: { currency0, currency1, fee, tickSpacing, hooks },
      zeroForOne: input.zeroForOne,
      amountIn: input.amountIn.toString(),
      amountOutMinimum: input.amountOutMinimum.toString(),
      hookData: '0x',
    },
  ]);
  planner.addAction(Actions.SETTLE_ALL, [currencyIn, input.amountIn.toString()]);
  planner.addAction(Actions.TAKE_ALL, [currencyOut, input.amountOutMinimum.toString()]);
  const commands = hexlify(Uint8Array.of(V4_SWAP_COMMAND));
  return UNIVERSAL_ROUTER.encodeFunctionData('execute(bytes,bytes[],uint256)', [
    commands,
    [planner.finalize()],
    input.deadline,
  ]);
}

/** minOut = quote * (10000 - slippageBps) / 10000, rounded down (never more than the quote). */
export function minAmountOut(quote: bigint, slippageBps: number): bigint {
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > Number(BPS_DENOMINATOR)) {
    throw new RangeError(`slippageBps out of range: ${slippageBps}`);
  }
  return (quote * (BPS_DENOMINATOR - BigInt(slippageBps))) / BPS_DENOMINATOR;
}
