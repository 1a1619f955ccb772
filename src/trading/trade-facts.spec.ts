import { tradeFacts } from './trade-facts';

const WETH = { symbol: 'WETH', decimals: 18 };
const tUSDC = { symbol: 'tUSDC', decimals: 6 };
const tWBTC = { symbol: 'tWBTC', decimals: 8 };

describe(tradeFacts.name, () => {
  it('gives the exact input of an exact-input swap (one pool or two hops)', () => {
    expect(
      tradeFacts({
        kind: 'swap',
        tokenIn: tWBTC,
        tokenOut: tUSDC,
        tradeType: 'EXACT_INPUT',
        amountIn: 150_000_000n,
      }),
    ).toEqual({
      tokens: ['tWBTC', 'tUSDC'],
      gives: [{ token: 'tWBTC', raw: 150_000_000n, amount: '1.5', decimals: 8 }],
    });
  });

  it('gives amountInMaximum for exact output', () => {
    const facts = tradeFacts({
      kind: 'swap',
      tokenIn: WETH,
      tokenOut: tUSDC,
      tradeType: 'EXACT_OUTPUT',
      amountInMaximum: 1_005_000_000_000_000_000n,
    });
    expect(facts.gives).toEqual([
      { token: 'WETH', raw: 1_005_000_000_000_000_000n, amount: '1.005', decimals: 18 },
    ]);
  });

  it("gives a liquidity addition's maximum amounts, a zero side left out", () => {
    expect(
      tradeFacts({
        kind: 'liquidity',
        token0: WETH,
        token1: tUSDC,
        amount0Max: 10n ** 18n,
        amount1Max: 3_000_000_000n,
      }).gives.map((g) => [g.token, g.amount]),
    ).toEqual([
      ['WETH', '1'],
      ['tUSDC', '3000'],
    ]);
    expect(
      tradeFacts({
        kind: 'liquidity',
        token0: WETH,
        token1: tUSDC,
        amount0Max: 0n,
        amount1Max: 1n,
      }).gives.map((g) => g.token),
    ).toEqual(['tUSDC']);
  });

  it('gives nothing for an exit', () => {
    expect(tradeFacts({ kind: 'exit' })).toEqual({ tokens: [], gives: [] });
  });
});
