/**
 * Quote prices with @uniswap/sdk-core (Price, CurrencyAmount, computePriceImpact): the pool's mid
 * price from sqrtPriceX96 (token0 in token1 = sqrtPriceX96^2 / 2^192, as v4-sdk Pool.token0Price),
 * the execution price of a quote, and the price impact (fee included, as Uniswap's SDK and
 * interface report it). Prices are tokenOut per tokenIn in whole-token units. Pure.
 */
import { computePriceImpact, CurrencyAmount, Price, Token } from '@uniswap/sdk-core';

const Q192 = (1n << 192n).toString();

// sdk-core's Token checksums its address (a keccak) on construction; a network has two pool
// tokens, so each Token is built once and reused (Tokens are immutable).
const tokens = new Map<string, Token>();

function tokenOf(chainId: number, token: PricedToken): Token {
  const key = `${chainId}:${token.address}:${token.decimals}`;
  let sdkToken = tokens.get(key);
  if (sdkToken === undefined) {
    sdkToken = new Token(chainId, token.address, token.decimals);
    if (tokens.size >= 1_000) tokens.clear();
    tokens.set(key, sdkToken);
  }
  return sdkToken;
}

export interface PricedToken {
  /** The pool currency's address (WETH for native ETH). */
  address: string;
  decimals: number;
}

export interface QuotePrices {
  midPrice: string;
  executionPrice: string;
  priceImpactBps: number;
}

export function quotePrices(input: {
  chainId: number;
  tokenIn: PricedToken;
  tokenOut: PricedToken;
  zeroForOne: boolean;
  sqrtPriceX96: bigint;
  amountIn: bigint;
  amountOut: bigint;
}): QuotePrices {
  const tokenIn = tokenOf(input.chainId, input.tokenIn);
  const tokenOut = tokenOf(input.chainId, input.tokenOut);
  const [token0, token1] = input.zeroForOne ? [tokenIn, tokenOut] : [tokenOut, tokenIn];
  const ratioX192 = (input.sqrtPriceX96 * input.sqrtPriceX96).toString();
  const token0Price = new Price(token0, token1, Q192, ratioX192);
  const mid = input.zeroForOne ? token0Price : token0Price.invert();
  const amountIn = CurrencyAmount.fromRawAmount(tokenIn, input.amountIn.toString());
  const amountOut = CurrencyAmount.fromRawAmount(tokenOut, input.amountOut.toString());
  const execution = new Price(tokenIn, tokenOut, amountIn.quotient, amountOut.quotient);
  const impact = computePriceImpact(mid as Price<Token, Token>, amountIn, amountOut);
  return {
    midPrice: mid.toSignificant(10),
    executionPrice: execution.toSignificant(10),
    // Percent.toFixed gives percent; 1 % = 100 bps.
    priceImpactBps: Math.round(Number(impact.toFixed(4)) * 100),
  };
}
