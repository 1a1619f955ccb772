/**
 * What a build makes the wallet give, per token (issue 54, design §10): the facts the trade rules
 * (allow-list, per-trade and daily limits) and approvals (issue 55) judge. A swap gives its input:
 * exactly amountIn for exact input, at most amountInMaximum for exact output (one pool or two
 * hops alike: the intermediate token is neither given nor received). A liquidity addition (mint,
 * increase) gives at most its amounts. Exits (decrease, collect, burn) give nothing and are never
 * refused. Native ETH is WETH here. Pure: tokens come in resolved.
 */
import { formatWholeUnits } from '../compliance/policy/trading-rules';

/** A token of the market as the rules name it: ETH is WETH. */
export interface TradeToken {
  symbol: string;
  decimals: number;
}

export type TradeRequest =
  | {
      kind: 'swap';
      tokenIn: TradeToken;
      tokenOut: TradeToken;
      tradeType: 'EXACT_INPUT';
      amountIn: bigint;
    }
  | {
      kind: 'swap';
      tokenIn: TradeToken;
      tokenOut: TradeToken;
      tradeType: 'EXACT_OUTPUT';
      amountInMaximum: bigint;
    }
  | {
      kind: 'liquidity';
      token0: TradeToken;
      token1: TradeToken;
      amount0Max: bigint;
      amount1Max: bigint;
    }
  | { kind: 'exit' };

/** What the wallet gives of one token: raw (smallest units) and in whole units. */
export interface TokenGive {
  token: string;
  raw: bigint;
  /** Whole units, e.g. "2.5". */
  amount: string;
  decimals: number;
}

export interface TradeFacts {
  /** Every token the trade gives or receives (the allow-list's concern), in request order. */
  tokens: string[];
  /** What the wallet gives, one entry per token, in request order; empty for an exit. */
  gives: TokenGive[];
}

const give = (token: TradeToken, raw: bigint): TokenGive => ({
  token: token.symbol,
  raw,
  amount: formatWholeUnits(raw, token.decimals),
  decimals: token.decimals,
});

export function tradeFacts(request: TradeRequest): TradeFacts {
  switch (request.kind) {
    case 'exit':
      return { tokens: [], gives: [] };
    case 'swap': {
      const raw = request.tradeType === 'EXACT_INPUT' ? request.amountIn : request.amountInMaximum;
      return {
        tokens: [request.tokenIn.symbol, request.tokenOut.symbol],
        gives: [give(request.tokenIn, raw)],
      };
    }
    case 'liquidity':
      return {
        tokens: [request.token0.symbol, request.token1.symbol],
        gives: [give(request.token0, request.amount0Max), give(request.token1, request.amount1Max)]
          // A one-sided range gives only one token; a zero maximum gives nothing of the other.
          .filter((g) => g.raw > 0n),
      };
  }
}
