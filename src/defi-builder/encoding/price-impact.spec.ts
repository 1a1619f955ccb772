import { Token } from '@uniswap/sdk-core';
import { TickMath } from '@uniswap/v3-sdk';
import { Pool } from '@uniswap/v4-sdk';
import JSBI from 'jsbi';
import { quotePrices, routeQuotePrices } from './price-impact';

const WETH = { address: '0x77139Fa81c4434893f9D7e033C3e3903C46B820D', decimals: 18 };
const TUSDC = { address: '0x993706027b3eC9d8b03A962CAaa15C133A52707c', decimals: 6 };
// 3000 tUSDC per WETH: sqrt(3000e6 / 1e18) * 2^96
const SQRT_PRICE = 4339505179874779489431521n;

describe('routeQuotePrices', () => {
  it('multiplies the hops’ pool prices into the mid price, as v4-sdk Route.midPrice', () => {
    const WBTC = { address: '0x0000000000000000000000000000000000000b7c', decimals: 8 };
    // 1 tWBTC = 20 WETH: WBTC is currency0 of the WETH/tWBTC pool (lower address).
    // token1 per token0 in raw units: 20e18 / 1e8 = 2e11; sqrtPriceX96 = sqrt(2e11) * 2^96.
    const wbtcSqrt = 35431911422859142059220343232145201n;
    const t = (x: typeof WETH) => new Token(84532, x.address, x.decimals);
    const pool = (a: typeof WETH, b: typeof WETH, sqrt: bigint) => {
      const tick = TickMath.getTickAtSqrtRatio(JSBI.BigInt(sqrt.toString()));
      return new Pool(
        t(a),
        t(b),
        3000,
        60,
        '0x0000000000000000000000000000000000000000',
        sqrt.toString(),
        0,
        tick,
      );
    };
    const wbtcWeth = pool(WBTC, WETH, wbtcSqrt);
    const wethUsdc = pool(WETH, TUSDC, SQRT_PRICE);
    const expected = wbtcWeth.token0Price.multiply(wethUsdc.token0Price);
    const prices = routeQuotePrices({
      chainId: 84532,
      hops: [
        { tokenIn: WBTC, tokenOut: WETH, zeroForOne: true, sqrtPriceX96: wbtcSqrt },
        { tokenIn: WETH, tokenOut: TUSDC, zeroForOne: true, sqrtPriceX96: SQRT_PRICE },
      ],
      amountIn: 10n ** 6n, // 0.01 tWBTC: 600 tUSDC at the mid price
      amountOut: 594n * 10n ** 6n,
    });
    expect(prices.midPrice).toBe(expected.toSignificant(10));
    expect(Number(prices.midPrice)).toBeCloseTo(60_000, 0);
    expect(prices.executionPrice).toBe('59400');
    expect(prices.priceImpactBps).toBe(100);
  });
});

describe('quotePrices', () => {
  it("gives the pool's mid price as v4-sdk Pool does, both directions", () => {
    const t0 = new Token(84532, WETH.address, 18);
    const t1 = new Token(84532, TUSDC.address, 6);
    const tick = TickMath.getTickAtSqrtRatio(JSBI.BigInt(SQRT_PRICE.toString()));
    const pool = new Pool(
      t0,
      t1,
      3000,
      60,
      '0x0000000000000000000000000000000000000000',
      SQRT_PRICE.toString(),
      0,
      tick,
    );
    const common = { chainId: 84532, sqrtPriceX96: SQRT_PRICE };
    const sell = quotePrices({
      ...common,
      tokenIn: WETH,
      tokenOut: TUSDC,
      zeroForOne: true,
      amountIn: 10n ** 18n,
      amountOut: 2991n * 10n ** 6n,
    });
    expect(sell.midPrice).toBe(pool.token0Price.toSignificant(10));
    expect(Number(sell.midPrice)).toBeCloseTo(3000, 6);
    expect(sell.executionPrice).toBe('2991');
    expect(sell.priceImpactBps).toBe(30); // 0.3 %
    const buy = quotePrices({
      ...common,
      tokenIn: TUSDC,
      tokenOut: WETH,
      zeroForOne: false,
      amountIn: 3000n * 10n ** 6n,
      amountOut: 10n ** 18n,
    });
    expect(buy.midPrice).toBe(pool.token1Price.toSignificant(10));
    expect(buy.priceImpactBps).toBe(0);
  });
});

describe('quotePrices reuses its sdk-core Tokens', () => {
  const input = {
    chainId: 84532,
    sqrtPriceX96: SQRT_PRICE,
    tokenIn: WETH,
    tokenOut: TUSDC,
    zeroForOne: true,
    amountIn: 10n ** 18n,
    amountOut: 2991n * 10n ** 6n,
  };

  it('gives the same prices on repeated calls, and keys tokens by chain, address and decimals', () => {
    const first = quotePrices(input);
    expect(quotePrices(input)).toEqual(first);
    expect(quotePrices({ ...input, chainId: 1 })).toEqual(first);
    // The same address with other decimals is another token (1000x the mid price here).
    const other = quotePrices({ ...input, tokenOut: { ...TUSDC, decimals: 3 } });
    expect(Number(other.midPrice)).toBeCloseTo(Number(first.midPrice) * 1000, 0);
  });

  it('still refuses a bad checksum every time (nothing is kept for it)', () => {
    const bad = { ...input, tokenIn: { ...WETH, address: WETH.address.replace('F', 'f') } };
    expect(() => quotePrices(bad)).toThrow();
    expect(() => quotePrices(bad)).toThrow();
  });
});
