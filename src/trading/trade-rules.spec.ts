import type { TradingRules } from '../compliance/policy/trading-rules';
import { tradeFacts } from './trade-facts';
import { dailyLimitedTokens, refuseDaily, refuseWithoutLedger } from './trade-rules';

const WETH = { symbol: 'WETH', decimals: 18 };
const tUSDC = { symbol: 'tUSDC', decimals: 6 };
const tWBTC = { symbol: 'tWBTC', decimals: 8 };
const RULES: TradingRules = {
  enforcement: 'service',
  tokens: { allow: ['WETH', 'tUSDC'] },
  limits: [
    { token: 'WETH', perTrade: '1', perDay: '1.5' },
    { token: 'tUSDC', perTrade: '100' },
  ],
};
const sell = (amountIn: bigint, tokenIn = WETH, tokenOut = tUSDC) =>
  tradeFacts({ kind: 'swap', tokenIn, tokenOut, tradeType: 'EXACT_INPUT', amountIn });

describe(refuseWithoutLedger.name, () => {
  it('refuses a token outside the allow-list, given or received', () => {
    expect(refuseWithoutLedger(RULES, sell(1n, tUSDC, tWBTC))).toMatchObject({
      code: 'TOKEN_NOT_ALLOWED',
      rule: 'tokens.allow',
      details: { token: 'tWBTC', allowed: ['WETH', 'tUSDC'] },
    });
  });

  it('refuses over the per-trade limit, at the limit it passes', () => {
    expect(refuseWithoutLedger(RULES, sell(10n ** 18n))).toBeNull();
    expect(refuseWithoutLedger(RULES, sell(10n ** 18n + 1n))).toMatchObject({
      code: 'TRADE_LIMIT_EXCEEDED',
      details: {
        token: 'WETH',
        limit: '1',
        window: 'trade',
        used: '0',
        requested: '1.000000000000000001',
      },
    });
  });

  it('judges each token a liquidity addition gives', () => {
    const facts = tradeFacts({
      kind: 'liquidity',
      token0: WETH,
      token1: tUSDC,
      amount0Max: 1n,
      amount1Max: 101_000_000n,
    });
    expect(refuseWithoutLedger(RULES, facts)).toMatchObject({
      details: { token: 'tUSDC', limit: '100', requested: '101' },
    });
  });

  it('passes everything without rules of that kind', () => {
    expect(refuseWithoutLedger({ enforcement: 'onchain' }, sell(10n ** 30n, tWBTC))).toBeNull();
  });
});

describe(refuseDaily.name, () => {
  it('refuses the trade that would cross the 24 h limit, with what is used', () => {
    const used = new Map([['WETH', 14n * 10n ** 17n]]);
    expect(refuseDaily(RULES, sell(10n ** 17n), used)).toBeNull();
    expect(refuseDaily(RULES, sell(2n * 10n ** 17n), used)).toMatchObject({
      rule: 'limits.perDay',
      details: { token: 'WETH', limit: '1.5', window: '24h', used: '1.4', requested: '0.2' },
    });
  });

  it('reads the ledger only for tokens with a daily limit', () => {
    expect(dailyLimitedTokens(RULES, sell(1n))).toEqual(['WETH']);
    expect(dailyLimitedTokens(RULES, sell(1n, tUSDC, WETH))).toEqual([]);
  });
});
