import { marketNetwork } from '../../../test/helpers/market';
import type { Quote } from '../encoding/market-reads';
import type { ResolvedToken } from '../token-registry';
import { choosePairRoute, pairRoutes, routeView, swapPoolsOf } from './pair-route';

const { network, keys, WETH, TUSDC, TWBTC, TEURC } = marketNetwork();
const token = (symbol: string, native = false) =>
  ({
    symbol,
    address: native
      ? '0x0000000000000000000000000000000000000000'
      : (network.tokens as Record<string, { address: string }>)[symbol].address,
    decimals: 18,
    native,
  }) as ResolvedToken;
const ok = (amount: bigint): Quote => ({ ok: true, amount, gasEstimate: 1n });

describe('pairRoutes', () => {
  it('routes native ETH as WETH, and answers the same routes object for the same pair', () => {
    const pair = { tokenIn: token('WETH', true), tokenOut: token('tEURC') };
    const routes = pairRoutes(network, pair);
    expect(routes.map((r) => r.hops.map((h) => h.pool.fee))).toEqual([
      [3000, 100],
      [3000, 500],
    ]);
    expect(routes[0].hops[0].tokenIn).toBe(WETH);
    expect(pairRoutes(network, pair)).toBe(routes);
  });

  it('throws NO_ROUTE naming the tokens by symbol', () => {
    expect(() =>
      pairRoutes(network, { tokenIn: token('tWBTC'), tokenOut: token('tEURC') }),
    ).toThrow(
      expect.objectContaining({
        code: 'NO_ROUTE',
        message: 'No listed pool or two-hop route connects tWBTC to tEURC',
      }),
    );
  });
});

describe('choosePairRoute, swapPoolsOf, routeView', () => {
  const pair = { tokenIn: token('tEURC'), tokenOut: token('tUSDC') };

  it('takes the better fee tier and encodes it as one pool', () => {
    const chosen = choosePairRoute(network, pair, 'EXACT_INPUT', 1000n, {
      route0: ok(1070n),
      route1: ok(1075n),
    });
    expect(chosen.quote).toEqual(ok(1075n));
    expect(swapPoolsOf(chosen.route)).toEqual({
      poolKey: expect.objectContaining({ fee: keys.usdcEurc500.fee }),
      zeroForOne: BigInt(TEURC) < BigInt(TUSDC),
    });
    expect(routeView(chosen).hops).toEqual([
      {
        poolId: chosen.route.hops[0].pool.id,
        tokenIn: TEURC,
        tokenOut: TUSDC,
        fee: 500,
        amountIn: '1000',
        amountOut: '1075',
      },
    ]);
  });

  it('encodes a two-hop route as its path; with no quote the first candidate, amounts null', () => {
    const twoHop = { tokenIn: token('tWBTC'), tokenOut: token('tUSDC') };
    const failed = choosePairRoute(network, twoHop, 'EXACT_INPUT', 1000n, {
      route0: { ok: false, revert: { name: 'X', args: {}, code: 'REVERTED', summary: 'X()' } },
      'route0:hop': ok(1n),
    });
    expect(failed.quote.ok).toBe(false);
    expect(swapPoolsOf(failed.route)).toEqual({
      path: {
        currencyIn: TWBTC,
        currencyOut: TUSDC,
        pools: [expect.objectContaining(keys.wethWbtc), expect.objectContaining(keys.wethUsdc)],
      },
    });
    expect(
      routeView(failed).hops.map((h) => [h.tokenIn, h.tokenOut, h.amountIn, h.amountOut]),
    ).toEqual([
      [TWBTC, WETH, null, null],
      [WETH, TUSDC, null, null],
    ]);
  });
});
