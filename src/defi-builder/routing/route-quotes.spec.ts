import devnetFile from '../../config/networks/devnet.json';
import { V4_QUOTER } from '../../chain/abi/uniswap-v4';
import { decodeRevert } from '../../chain/encoding/revert-decoder';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import type { Quote } from '../encoding/market-reads';
import { poolKeyTuple } from '../encoding/pool-key';
import { bestRoute, choiceQuote, routeQuoteReads } from './route-quotes';
import { A, B, C, marketPool } from '../../../test/helpers/market';
import { findRoutes, RoutablePool } from './routes';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const pool = marketPool;
const ab100 = pool('0x01', A, B, 100);
const ab500 = pool('0x02', A, B, 500);
const bc = pool('0x03', B, C, 3000);
const pools = [ab100, ab500, bc];
const ok = (amount: bigint): Quote => ({ ok: true, amount, gasEstimate: 1n });
const failed: Quote = { ok: false, revert: decodeRevert('0x12345678') };
const pathKey = (intermediate: string, p: RoutablePool) => [
  intermediate,
  p.fee,
  p.tickSpacing,
  p.hooks,
  '0x',
];

describe('routeQuoteReads', () => {
  it('quotes a direct pool with the single-pool quote, a two-hop route with the path quote and its fixing hop', () => {
    const direct = findRoutes({ pools }, B, A);
    const reads = routeQuoteReads(network, direct, 'EXACT_INPUT', 7n);
    expect(Object.keys(reads)).toEqual(['route0', 'route1']);
    expect(reads.route1.call).toEqual({
      target: network.contracts.v4Quoter,
      allowFailure: true,
      callData: V4_QUOTER.encodeFunctionData('quoteExactInputSingle', [
        [poolKeyTuple(ab500), false, 7n, '0x'],
      ]),
    });

    const twoHop = findRoutes({ pools }, C, A); // C -> B -> A, in two fee tiers
    const exactIn = routeQuoteReads(network, twoHop, 'EXACT_INPUT', 9n);
    expect(Object.keys(exactIn)).toEqual(['route0', 'route0:hop', 'route1', 'route1:hop']);
    expect(exactIn.route0.call.callData).toBe(
      V4_QUOTER.encodeFunctionData('quoteExactInput', [
        [C, [pathKey(B, bc), pathKey(A, ab100)], 9n],
      ]),
    );
    expect(exactIn['route0:hop'].call.callData).toBe(
      V4_QUOTER.encodeFunctionData('quoteExactInputSingle', [[poolKeyTuple(bc), false, 9n, '0x']]),
    );
    const exactOut = routeQuoteReads(network, twoHop, 'EXACT_OUTPUT', 9n);
    expect(exactOut.route1.call.callData).toBe(
      V4_QUOTER.encodeFunctionData('quoteExactOutput', [
        [A, [pathKey(C, bc), pathKey(B, ab500)], 9n],
      ]),
    );
    // Exact output: the last hop fixes the intermediate amount.
    expect(exactOut['route1:hop'].call.callData).toBe(
      V4_QUOTER.encodeFunctionData('quoteExactOutputSingle', [
        [poolKeyTuple(ab500), false, 9n, '0x'],
      ]),
    );
  });

  it('decodes a path quote as the quoter returns it', () => {
    const [route] = findRoutes({ pools }, C, A);
    const reads = routeQuoteReads(network, [route], 'EXACT_INPUT', 9n);
    expect(
      reads.route0.decode({
        ok: true,
        returnData: V4_QUOTER.encodeFunctionResult('quoteExactInput', [99n, 5n]),
      }),
    ).toEqual({ ok: true, amount: 99n, gasEstimate: 5n });
  });
});

describe('bestRoute', () => {
  const direct = findRoutes({ pools }, B, A);
  const twoHop = findRoutes({ pools }, C, A);

  it('takes the largest output for an exact input, with each hop’s amounts', () => {
    const choice = bestRoute(direct, 'EXACT_INPUT', 10n, { route0: ok(5n), route1: ok(6n) });
    expect(choice.ok && choice.best.hops).toEqual([
      { poolId: '0x02', tokenIn: B, tokenOut: A, fee: 500, amountIn: 10n, amountOut: 6n },
    ]);
    const hops = bestRoute(twoHop, 'EXACT_INPUT', 10n, {
      route0: ok(40n),
      'route0:hop': ok(20n),
      route1: ok(41n),
      'route1:hop': ok(20n),
    });
    expect(hops.ok && hops.best.hops.map((h) => [h.poolId, h.amountIn, h.amountOut])).toEqual([
      ['0x03', 10n, 20n],
      ['0x02', 20n, 41n],
    ]);
  });

  it('takes the smallest input for an exact output', () => {
    const choice = bestRoute(twoHop, 'EXACT_OUTPUT', 10n, {
      route0: ok(30n),
      'route0:hop': ok(15n),
      route1: ok(31n),
      'route1:hop': ok(14n),
    });
    expect(choice.ok && choice.best.hops.map((h) => [h.poolId, h.amountIn, h.amountOut])).toEqual([
      ['0x03', 30n, 15n],
      ['0x01', 15n, 10n],
    ]);
    expect(choice.ok && [choice.best.amountIn, choice.best.amountOut]).toEqual([30n, 10n]);
  });

  it('skips a route whose quote fails or is zero; fails only when every route does', () => {
    const choice = bestRoute(direct, 'EXACT_INPUT', 10n, { route0: failed, route1: ok(3n) });
    expect(choice.ok && choice.best.hops[0].poolId).toBe('0x02');
    const zero = bestRoute(direct, 'EXACT_INPUT', 10n, { route0: ok(0n), route1: failed });
    expect(zero).toEqual({ ok: false, zero: true });
    expect(choiceQuote(zero)).toEqual({ ok: true, amount: 0n, gasEstimate: 0n });
    const none = bestRoute(twoHop, 'EXACT_INPUT', 10n, {
      route0: ok(3n),
      'route0:hop': failed,
      route1: failed,
      'route1:hop': ok(1n),
    });
    expect(none).toEqual(failed);
    expect(choiceQuote(none)).toEqual(failed);
  });
});
