/**
 * A swap's limits from its request and the V4Quoter quote read in the preflight batch: exact
 * input -> minimum out; exact output -> maximum in (what the allowance and balance checks use).
 * Pure; an unquotable trade without an explicit limit is 400 BUILD_FAILED.
 */
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';
import type { SwapRequestDto } from '../dto/swap-request.dto';
import type { Quote } from '../encoding/market-reads';
import { zeroForOneFor } from '../encoding/pool-key';
import { maxAmountIn, minAmountOut, TradeType } from '../encoding/swap-calldata';
import type { ResolvedToken } from '../token-registry';

export const DEFAULT_SLIPPAGE_BPS = 50;

export interface SwapLimits {
  tradeType: TradeType;
  /** The exact side: amountIn (EXACT_INPUT) or amountOut (EXACT_OUTPUT). */
  exact: bigint;
  /** The quote of the other side, null when it failed and the caller set the limit. */
  quoted: bigint | null;
  /** minAmountOut (EXACT_INPUT) or maxAmountIn (EXACT_OUTPUT). */
  limit: bigint;
  /** What the wallet pays at most. */
  maxIn: bigint;
  slippageBps: number | null;
}

export function tradeTypeOf(dto: Pick<SwapRequestDto, 'tradeType'>): TradeType {
  return dto.tradeType ?? 'EXACT_INPUT';
}

export function swapLimits(
  dto: SwapRequestDto,
  quote: Quote,
  tokens: { tokenIn: ResolvedToken; tokenOut: ResolvedToken },
): SwapLimits {
  const tradeType = tradeTypeOf(dto);
  const exactIn = tradeType === 'EXACT_INPUT';
  const exact = BigInt(dto.amount);
  const explicit = exactIn ? dto.amountOutMinimum : dto.amountInMaximum;
  const quoted = quote.ok ? quote.amount : null;
  const slippageBps = explicit === undefined ? (dto.slippageBps ?? DEFAULT_SLIPPAGE_BPS) : null;
  let limit: bigint;
  if (explicit !== undefined) {
    limit = BigInt(explicit);
  } else if (quoted !== null && quoted > 0n) {
    limit = exactIn ? minAmountOut(quoted, slippageBps!) : maxAmountIn(quoted, slippageBps!);
  } else {
    const why = quote.ok ? 'the quote was zero' : quote.revert.summary;
    const side = exactIn ? tokens.tokenIn : tokens.tokenOut;
    throw new ApiError(
      'BUILD_FAILED',
      `Could not quote ${tradeType} ${exact} of ${symbolOf(side)} (${symbolOf(tokens.tokenIn)} -> ${symbolOf(tokens.tokenOut)}): ${why}`,
      {
        hint: `Lower the amount (the pool may lack liquidity for it), or pass ${exactIn ? 'amountOutMinimum' : 'amountInMaximum'} explicitly.`,
      },
    );
  }
  return { tradeType, exact, quoted, limit, maxIn: exactIn ? exact : limit, slippageBps };
}

export function symbolOf(token: ResolvedToken): string {
  return token.native ? 'ETH' : token.symbol;
}

/**
 * Which calibrated gas figure a swap uses: wrapping/unwrapping ETH or a permit cost extra; a
 * second hop costs a second pool swap (and its hook).
 */
export function swapGas(
  tokens: { tokenIn: ResolvedToken; tokenOut: ResolvedToken },
  permit: boolean,
  hops = 1,
): 'swap' | 'swapNative' | 'swapPermit' | 'swapTwoHop' {
  if (hops > 1) return 'swapTwoHop';
  if (tokens.tokenIn.native || tokens.tokenOut.native) return 'swapNative';
  return permit ? 'swapPermit' : 'swap';
}

/** The pool's direction, from the pool currencies (ETH trades as WETH). */
export function zeroForOneOf(
  network: NetworkDefinition,
  tokens: { tokenIn: ResolvedToken; tokenOut: ResolvedToken },
): boolean {
  return zeroForOneFor(
    network.tokens[tokens.tokenIn.symbol].address,
    network.tokens[tokens.tokenOut.symbol].address,
  );
}
