/**
 * UniversalRouter calldata for a v4 swap over one pool or a multi-hop path (issue 42), both trade
 * types, with native ETH on either side and an optional signed Permit2 permit. The commands and
 * v4 actions are those @uniswap/universal-router-sdk's RoutePlanner and @uniswap/v4-sdk's
 * V4Planner produce:
 *
 *   [PERMIT2_PERMIT]  when the caller sent a signed PermitSingle (replaces Permit2.approve)
 *   [WRAP_ETH]        paying ETH: the router wraps msg.value into WETH it holds
 *   V4_SWAP           SWAP_EXACT_IN_SINGLE | SWAP_EXACT_OUT_SINGLE (one pool), or
 *                     SWAP_EXACT_IN | SWAP_EXACT_OUT with PathKey[] (v4-periphery V4Router), then
 *                       settle: SETTLE_ALL(in, max in) from the user through Permit2, or
 *                               SETTLE(WETH, amount | open delta, payerIsUser=false) from the router
 *                       take:   TAKE_ALL(out, min out) to the user, or
 *                               TAKE(WETH, router, open delta) when the user receives ETH
 *   [UNWRAP_WETH]     receiving ETH (min out), or paying ETH for an exact output (refund: min 0)
 *
 * The single-pool layout is the planners' on their default UR version (2.0
 * ExactInput/OutputSingleParams, no minHopPriceX36; the deployed router reads the empty hookData
 * where it would read a zero minHopPriceX36: no per-hop price floor). The multi-hop layout is
 * V4Planner's URVersion.V2_1_1 ExactInput/OutputParams, with an empty minHopPriceX36 array: the
 * deployed router decodes the path's params only in that layout (v4-periphery PR #516; its
 * bytecode carries V4TooLittleReceivedPerHop), and reverts with empty data on the 2.0 one: the UniversalRouter 2.1.0 we deploy (npm artifact) decodes that layout.
 *
 * Encoded word by word (`npm run bench:encoders`): the planners spend 0.55-0.85 ms per swap in ethers v5's AbiCoder,
 * most of it on what never changes for a pool (the pool key, selectors, command bytes). The words
 * of the pool key are computed once per key; the rest is hex concatenation. The planners stay the
 * reference: swap-calldata.spec.ts asserts byte equality against them over every variant.
 */
import { selectorOf } from '../../chain/abi/selectors';
import { CommandType, ROUTER_AS_RECIPIENT } from '@uniswap/universal-router-sdk';
import { Actions } from '@uniswap/v4-sdk';
import { UNIVERSAL_ROUTER } from '../../chain/abi/uniswap-v4';
import {
  addressWord,
  boolWord,
  bytesBody,
  encodedBytesArrayBody,
  encodedBytesBody,
  encodeParts,
  FALSE_WORD,
  parseUint,
  sizeWord,
  uintWord,
} from '../../chain/encoding/abi-words';
import { checksumAddress } from '../../common/address/checksum-address';
import type { PermitSingle } from './permit2-typed-data';
import { PoolKey, poolKeyWords } from './pool-key';

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

/**
 * A multi-hop path (IV4Router ExactInputParams / ExactOutputParams): the pools in trade order,
 * from currencyIn to currencyOut (pool currencies: WETH where the user pays or receives ETH).
 */
export interface SwapPath {
  currencyIn: string;
  currencyOut: string;
  pools: readonly PoolKey[];
}

/** One pool (the single-pool actions), or a path of two or more pools. */
export type SwapPools =
  | { poolKey: PoolKey; zeroForOne: boolean; path?: undefined }
  | { path: SwapPath; poolKey?: undefined; zeroForOne?: undefined };

export type SwapCalldataInput = SwapAmounts &
  SwapPools & {
    deadline: bigint;
    /** The user pays native ETH (the pool's WETH side is wrapped by the router). */
    ethIn?: boolean;
    /** The user receives native ETH (the router unwraps the WETH it took). */
    ethOut?: boolean;
    /** A signed Permit2 PermitSingle for the router, run first. */
    permit?: { permit: PermitSingle; signature: string };
    /**
     * Issue 54: the hook's hookData per pool, in trade order (index 0: the single pool, or the
     * path's first pool); absent entries and '0x' are empty (every build before hook v3).
     */
    hookData?: readonly string[];
  };

const EXECUTE = selectorOf(UNIVERSAL_ROUTER, 'execute');
const byte = (n: number) => n.toString(16).padStart(2, '0');
const ACTION = {
  exactInSingle: byte(Actions.SWAP_EXACT_IN_SINGLE),
  exactOutSingle: byte(Actions.SWAP_EXACT_OUT_SINGLE),
  exactIn: byte(Actions.SWAP_EXACT_IN),
  exactOut: byte(Actions.SWAP_EXACT_OUT),
  settle: byte(Actions.SETTLE),
  settleAll: byte(Actions.SETTLE_ALL),
  take: byte(Actions.TAKE),
  takeAll: byte(Actions.TAKE_ALL),
};
const COMMAND = {
  permit: byte(CommandType.PERMIT2_PERMIT),
  wrap: byte(CommandType.WRAP_ETH),
  swap: byte(CommandType.V4_SWAP),
  unwrap: byte(CommandType.UNWRAP_WETH),
};
const ROUTER_WORD = addressWord(ROUTER_AS_RECIPIENT);
const SENDER_WORD = addressWord(MSG_SENDER);
/** Swap params: the tuple's offset, then after its 9 head words the empty hookData. */
const TUPLE_AT = sizeWord(32);
const HOOK_DATA_AT = sizeWord(9 * 32);
const EMPTY_HOOK_DATA = HOOK_DATA_AT + sizeWord(0);
/**
 * ExactInputParams (UR 2.1.1): (currency, PathKey[] path, uint256[] minHopPriceX36, amount,
 * limit): 5 head words, the path after them, then the empty minHopPriceX36 (length 0).
 */
const PATH_AT = sizeWord(5 * 32);
const NO_HOP_PRICES = sizeWord(0);
/** PathKey: 5 head words, then its hookData (offset 5 words; empty: length 0). */
const PATH_KEY_HOOK_DATA_AT = sizeWord(5 * 32);
const PATH_KEY_HOOK_DATA = PATH_KEY_HOOK_DATA_AT + sizeWord(0);

/** The ABI body (length, padded data) of a hookData: '0x' or absent is the empty one. */
function hookDataBody(hookData: string | undefined): string | null {
  return hookData === undefined || hookData === '0x' ? null : bytesBody(hookData);
}
/** PERMIT2_PERMIT: PermitSingle is 6 static words; the signature's offset follows them. */
const SIGNATURE_AT = sizeWord(7 * 32);

/** PERMIT2_PERMIT input: abi.encode(PermitSingle, bytes signature). */
function permitInput({ permit, signature }: { permit: PermitSingle; signature: string }): string {
  const { details } = permit;
  return (
    addressWord(checksumAddress(details.token)) +
    uintWord(parseUint(details.amount), 160) +
    uintWord(parseUint(details.expiration), 48) +
    uintWord(parseUint(details.nonce), 48) +
    addressWord(checksumAddress(permit.spender)) +
    uintWord(parseUint(permit.sigDeadline)) +
    SIGNATURE_AT +
    bytesBody(signature)
  );
}

/**
 * PathKey[] of a path (v4-periphery PathKey.sol): each pool's fee, tickSpacing and hooks with the
 * currency the hop goes to (exact input) or comes from (exact output; V4Router walks it backwards
 * from currencyOut). Empty hookData.
 */
export function pathKeysBody(
  path: SwapPath,
  exactOut: boolean,
  hookData?: readonly string[],
): string {
  let into = path.currencyIn;
  let offsets = '';
  let keys = '';
  path.pools.forEach((key, i) => {
    const pool = poolKeyWords(key);
    const from = into;
    into = pool.currency0 === addressWord(from) ? key.currency1 : key.currency0;
    offsets += sizeWord(path.pools.length * 32 + keys.length / 2);
    const data = hookDataBody(hookData?.[i]);
    // pool.key: currency0, currency1, fee, tickSpacing, hooks (64 hex characters each).
    keys +=
      addressWord(exactOut ? from : into) +
      pool.key.slice(128) +
      (data === null ? PATH_KEY_HOOK_DATA : PATH_KEY_HOOK_DATA_AT + data);
  });
  return sizeWord(path.pools.length) + offsets + keys;
}

/** The swap action and its params (hex body): single-pool or multi-hop, either trade type. */
function swapAction(input: SwapCalldataInput): {
  action: string;
  params: string;
  currencyIn: string;
  currencyOut: string;
} {
  const exactOut = input.tradeType === 'EXACT_OUTPUT';
  // (amountIn, amountOutMinimum) | (amountOut, amountInMaximum)
  const amounts = exactOut
    ? uintWord(input.amountOut, 128) + uintWord(input.amountInMaximum, 128)
    : uintWord(input.amountIn, 128) + uintWord(input.amountOutMinimum, 128);
  if (input.path === undefined) {
    const pool = poolKeyWords(input.poolKey);
    const [currencyIn, currencyOut] = input.zeroForOne
      ? [pool.currency0, pool.currency1]
      : [pool.currency1, pool.currency0];
    const data = hookDataBody(input.hookData?.[0]);
    const hookData = data === null ? EMPTY_HOOK_DATA : HOOK_DATA_AT + data;
    return {
      action: exactOut ? ACTION.exactOutSingle : ACTION.exactInSingle,
      params: `${TUPLE_AT}${pool.key}${boolWord(input.zeroForOne)}${amounts}${hookData}`,
      currencyIn,
      currencyOut,
    };
  }
  const { path } = input;
  const currencyIn = addressWord(path.currencyIn);
  const currencyOut = addressWord(path.currencyOut);
  const keys = pathKeysBody(path, exactOut, input.hookData);
  const hopPricesAt = sizeWord(5 * 32 + keys.length / 2);
  return {
    action: exactOut ? ACTION.exactOut : ACTION.exactIn,
    // (currencyIn | currencyOut, path, minHopPriceX36 = [], amounts...)
    params: `${TUPLE_AT}${exactOut ? currencyOut : currencyIn}${PATH_AT}${hopPricesAt}${amounts}${keys}${NO_HOP_PRICES}`,
    currencyIn,
    currencyOut,
  };
}

export function encodeSwapCalldata(input: SwapCalldataInput): string {
  const exactOut = input.tradeType === 'EXACT_OUTPUT';
  const maxIn = exactOut ? input.amountInMaximum : input.amountIn;
  const minOut = exactOut ? input.amountOut : input.amountOutMinimum;

  const swap = swapAction(input);
  const { currencyIn, currencyOut } = swap;
  let actions = swap.action;
  // Each param and input is a hex body (no 0x) this function encoded.
  const params = [swap.params];
  if (input.ethIn) {
    // The router holds the wrapped ETH: it pays the pool itself (payerIsUser = false).
    actions += ACTION.settle;
    params.push(`${currencyIn}${uintWord(exactOut ? OPEN_DELTA : input.amountIn)}${FALSE_WORD}`);
  } else {
    actions += ACTION.settleAll;
    params.push(`${currencyIn}${uintWord(maxIn)}`);
  }
  if (input.ethOut) {
    actions += ACTION.take;
    params.push(`${currencyOut}${ROUTER_WORD}${uintWord(OPEN_DELTA)}`);
  } else {
    actions += ACTION.takeAll;
    params.push(`${currencyOut}${uintWord(minOut)}`);
  }

  let commands = '';
  const inputs: string[] = [];
  if (input.permit) {
    commands += COMMAND.permit;
    inputs.push(permitInput(input.permit));
  }
  if (input.ethIn) {
    commands += COMMAND.wrap;
    inputs.push(`${ROUTER_WORD}${uintWord(maxIn)}`);
  }
  commands += COMMAND.swap;
  inputs.push(
    encodeParts([{ tail: encodedBytesBody(actions) }, { tail: encodedBytesArrayBody(params) }]),
  );
  if (input.ethOut) {
    commands += COMMAND.unwrap;
    inputs.push(`${SENDER_WORD}${uintWord(minOut)}`);
  } else if (input.ethIn && exactOut) {
    // Paying ETH for an exact output: what the swap did not spend goes back as ETH.
    commands += COMMAND.unwrap;
    inputs.push(`${SENDER_WORD}${uintWord(0n)}`);
  }
  return `${EXECUTE}${encodeParts([
    { tail: encodedBytesBody(commands) },
    { tail: encodedBytesArrayBody(inputs) },
    uintWord(input.deadline),
  ])}`;
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
