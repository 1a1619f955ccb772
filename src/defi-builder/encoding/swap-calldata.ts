/**
 * UniversalRouter calldata for a single-pool v4 swap, both trade types, with native ETH on either
 * side and an optional signed Permit2 permit. Commands come from @uniswap/universal-router-sdk's
 * RoutePlanner, the v4 actions from @uniswap/v4-sdk's V4Planner:
 *
 *   [PERMIT2_PERMIT]  when the caller sent a signed PermitSingle (replaces Permit2.approve)
 *   [WRAP_ETH]        paying ETH: the router wraps msg.value into WETH it holds
 *   V4_SWAP           SWAP_EXACT_IN_SINGLE | SWAP_EXACT_OUT_SINGLE, then
 *                       settle: SETTLE_ALL(in, max in) from the user through Permit2, or
 *                               SETTLE(WETH, amount | open delta, payerIsUser=false) from the router
 *                       take:   TAKE_ALL(out, min out) to the user, or
 *                               TAKE(WETH, router, open delta) when the user receives ETH
 *   [UNWRAP_WETH]     receiving ETH (min out), or paying ETH for an exact output (refund: min 0)
 *
 * The planner stays on its default UR version (2.0 ExactInput/OutputSingleParams, no
 * minHopPriceX36): the UniversalRouter 2.1.0 we deploy (npm artifact) decodes that layout.
 */
import { CommandType, ROUTER_AS_RECIPIENT, RoutePlanner } from '@uniswap/universal-router-sdk';
import { Actions, V4Planner } from '@uniswap/v4-sdk';
import { UNIVERSAL_ROUTER } from '../../chain/abi/uniswap-v4';
import type { PermitSingle } from './permit2-typed-data';
import { PoolKey, poolKeyTuple } from './pool-key';

/** universal-router contracts/libraries/Commands.sol */
export const V4_SWAP_COMMAND = CommandType.V4_SWAP;
export const BPS_DENOMINATOR = 10_000n;
/** v4-periphery ActionConstants.MSG_SENDER (the router maps it to the caller); not exported by the SDKs. */
export const MSG_SENDER = '0x0000000000000000000000000000000000000001';
/** v4-periphery ActionConstants.OPEN_DELTA: settle/take the whole open delta. */
export const OPEN_DELTA = 0n;

export type TradeType = 'EXACT_INPUT' | 'EXACT_OUTPUT';

export type SwapAmounts =
  | { tradeType?: 'EXACT_INPUT'; amountIn: bigint; amountOutMinimum: bigint }
  | { tradeType: 'EXACT_OUTPUT'; amountOut: bigint; amountInMaximum: bigint };

export type SwapCalldataInput = SwapAmounts & {
  poolKey: PoolKey;
  zeroForOne: boolean;
  deadline: bigint;
  /** The user pays native ETH (the pool's WETH side is wrapped by the router). */
  ethIn?: boolean;
  /** The user receives native ETH (the router unwraps the WETH it took). */
  ethOut?: boolean;
  /** A signed Permit2 PermitSingle for the router, run first. */
  permit?: { permit: PermitSingle; signature: string };
};

/** The v4-sdk bundles ethers v5: decimal strings are the one number form both versions share. */
const dec = (n: bigint) => n.toString();

export function encodeSwapCalldata(input: SwapCalldataInput): string {
  const [currency0, currency1, fee, tickSpacing, hooks] = poolKeyTuple(input.poolKey);
  const poolKey = { currency0, currency1, fee, tickSpacing, hooks };
  const [currencyIn, currencyOut] = input.zeroForOne
    ? [currency0, currency1]
    : [currency1, currency0];
  const exactOut = input.tradeType === 'EXACT_OUTPUT';
  const maxIn = exactOut ? input.amountInMaximum : input.amountIn;
  const minOut = exactOut ? input.amountOut : input.amountOutMinimum;

  const v4 = new V4Planner();
  if (exactOut) {
    v4.addAction(Actions.SWAP_EXACT_OUT_SINGLE, [
      {
        poolKey,
        zeroForOne: input.zeroForOne,
        amountOut: dec(input.amountOut),
        amountInMaximum: dec(input.amountInMaximum),
        hookData: '0x',
      },
    ]);
  } else {
    v4.addAction(Actions.SWAP_EXACT_IN_SINGLE, [
      {
        poolKey,
        zeroForOne: input.zeroForOne,
        amountIn: dec(input.amountIn),
        amountOutMinimum: dec(input.amountOutMinimum),
        hookData: '0x',
      },
    ]);
  }
  if (input.ethIn) {
    // The router holds the wrapped ETH: it pays the pool itself.
    const settle = exactOut ? OPEN_DELTA : input.amountIn;
    v4.addAction(Actions.SETTLE, [currencyIn, dec(settle), false]);
  } else {
    v4.addAction(Actions.SETTLE_ALL, [currencyIn, dec(maxIn)]);
  }
  if (input.ethOut) v4.addAction(Actions.TAKE, [currencyOut, ROUTER_AS_RECIPIENT, dec(OPEN_DELTA)]);
  else v4.addAction(Actions.TAKE_ALL, [currencyOut, dec(minOut)]);

  const router = new RoutePlanner();
  if (input.permit) {
    router.addCommand(CommandType.PERMIT2_PERMIT, [input.permit.permit, input.permit.signature]);
  }
  if (input.ethIn) router.addCommand(CommandType.WRAP_ETH, [ROUTER_AS_RECIPIENT, dec(maxIn)]);
  router.addCommand(CommandType.V4_SWAP, [v4.finalize()]);
  if (input.ethOut) router.addCommand(CommandType.UNWRAP_WETH, [MSG_SENDER, dec(minOut)]);
  // Paying ETH for an exact output: what the swap did not spend goes back as ETH.
  else if (input.ethIn && exactOut) {
    router.addCommand(CommandType.UNWRAP_WETH, [MSG_SENDER, '0']);
  }
  return UNIVERSAL_ROUTER.encodeFunctionData('execute(bytes,bytes[],uint256)', [
    router.commands,
    router.inputs,
    input.deadline,
  ]);
}

/** minOut = quote * (10000 - slippageBps) / 10000, rounded down (never more than the quote). */
export function minAmountOut(quote: bigint, slippageBps: number): bigint {
  checkSlippage(slippageBps);
  return (quote * (BPS_DENOMINATOR - BigInt(slippageBps))) / BPS_DENOMINATOR;
}

/** maxIn = quote * (10000 + slippageBps) / 10000, rounded up (never less than the quote). */
export function maxAmountIn(quote: bigint, slippageBps: number): bigint {
  checkSlippage(slippageBps);
  const scaled = quote * (BPS_DENOMINATOR + BigInt(slippageBps));
  return (scaled + BPS_DENOMINATOR - 1n) / BPS_DENOMINATOR;
}

function checkSlippage(slippageBps: number): void {
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > Number(BPS_DENOMINATOR)) {
    throw new RangeError(`slippageBps out of range: ${slippageBps}`);
  }
}
