/**
 * Quote prices with @uniswap/sdk-core (Price, CurrencyAmount, computePriceImpact): the pool's mid
 * price from sqrtPriceX96 (token0 in token1 = sqrtPriceX96^2 / 2^192, as v4-sdk Pool.token0Price),
 * the execution price of a quote, and the price impact (fee included, as Uniswap's SDK and
 * interface report it). Prices are tokenOut per tokenIn in whole-token units. Pure.
 */
import { computePriceImpact, CurrencyAmount, Price, Token } from '@uniswap/sdk-core';

const Q192 = (1n << 192n).toString();

// sdk-core's Token checksums its address (a keccak) on construction; a network has a few pool
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
  const { chainId, tokenIn, tokenOut, zeroForOne, sqrtPriceX96, amountIn, amountOut } = input;
  return routeQuotePrices({
    chainId,
    hops: [{ tokenIn, tokenOut, zeroForOne, sqrtPriceX96 }],
    amountIn,
    amountOut,
  });
}

/** A hop of a route: its pool's price and direction. */
export interface PricedHop {
  tokenIn: PricedToken;
  tokenOut: PricedToken;
  zeroForOne: boolean;
  sqrtPriceX96: bigint;
}

/** The pool's mid price of a hop: tokenOut per tokenIn. */
function hopMid(chainId: number, hop: PricedHop): Price<Token, Token> {
  const tokenIn = tokenOf(chainId, hop.tokenIn);
  const tokenOut = tokenOf(chainId, hop.tokenOut);
  const [token0, token1] = hop.zeroForOne ? [tokenIn, tokenOut] : [tokenOut, tokenIn];
  const ratioX192 = (hop.sqrtPriceX96 * hop.sqrtPriceX96).toString();
  const token0Price = new Price(token0, token1, Q192, ratioX192);
  return hop.zeroForOne ? token0Price : token0Price.invert();
}

/**
 * quotePrices over a route (issue 42): the mid price is the product of each hop's pool price
 * (as the v4-sdk's Route.midPrice), the impact measured against it.
 */
export function routeQuotePrices(input: {
  chainId: number;
  hops: readonly PricedHop[];
  amountIn: bigint;
  amountOut: bigint;
}): QuotePrices {
  const { chainId, hops } = input;
  let mid = hopMid(chainId, hops[0]);
  for (const hop of hops.slice(1)) mid = mid.multiply(hopMid(chainId, hop));
  const tokenIn = tokenOf(chainId, hops[0].tokenIn);
  const tokenOut = tokenOf(chainId, hops[hops.length - 1].tokenOut);
  const amountIn = CurrencyAmount.fromRawAmount(tokenIn, input.amountIn.toString());
  const amountOut = CurrencyAmount.fromRawAmount(tokenOut, input.amountOut.toString());
  const execution = new Price(tokenIn, tokenOut, amountIn.quotient, amountOut.quotient);
  const impact = computePriceImpact(mid, amountIn, amountOut);
  return {
    midPrice: mid.toSignificant(10),
    executionPrice: execution.toSignificant(10),
    // Percent.toFixed gives percent; 1 % = 100 bps.
    priceImpactBps: Math.round(Number(impact.toFixed(4)) * 100),
  };
}
