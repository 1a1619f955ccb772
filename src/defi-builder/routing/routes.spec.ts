import { ApiError } from '../../common/errors/api-error';
import { A, B, C, D, marketPool } from '../../../test/helpers/market';
import { findRoutes, reachableFrom, routesOrNoRoute } from './routes';

const SYMBOL: Record<string, string> = { [A]: 'tUSDC', [B]: 'WETH', [C]: 'tWBTC', [D]: 'tEURC' };
const label = (t: string) => SYMBOL[t];
const pool = marketPool;
// The devnet's market: WETH/tUSDC, WETH/tWBTC, tUSDC/tEURC in two fee tiers.
const usdcWeth = pool('0x01', A, B, 3000);
const wethWbtc = pool('0x02', B, C, 3000);
const usdcEurc100 = pool('0x03', A, D, 100);
const usdcEurc500 = pool('0x04', A, D, 500);
const pools = [usdcWeth, wethWbtc, usdcEurc100, usdcEurc500];

const shape = (routes: ReturnType<typeof findRoutes>) =>
  routes.map((r) => r.hops.map((h) => `${label(h.tokenIn)}>${label(h.tokenOut)}@${h.pool.id}`));

describe('findRoutes', () => {
  it('lists the direct pool of a pair with its direction', () => {
    const routes = findRoutes({ pools }, B, A);
    expect(shape(routes)).toEqual([['WETH>tUSDC@0x01']]);
    expect(routes[0].hops[0].zeroForOne).toBe(false);
    expect(findRoutes({ pools }, A, B)[0].hops[0].zeroForOne).toBe(true);
  });

  it('lists both fee tiers of a pair', () => {
    expect(shape(findRoutes({ pools }, D, A))).toEqual([
      ['tEURC>tUSDC@0x03'],
      ['tEURC>tUSDC@0x04'],
    ]);
  });

  it('routes two tokens without a direct pool through one intermediate', () => {
    const routes = findRoutes({ pools }, C, A);
    expect(shape(routes)).toEqual([['tWBTC>WETH@0x02', 'WETH>tUSDC@0x01']]);
    expect(routes[0].hops.map((h) => h.zeroForOne)).toEqual([false, false]);
  });

  it('offers every two-hop combination of fee tiers, and direct pools before two-hop routes', () => {
    expect(shape(findRoutes({ pools }, B, D))).toEqual([
      ['WETH>tUSDC@0x01', 'tUSDC>tEURC@0x03'],
      ['WETH>tUSDC@0x01', 'tUSDC>tEURC@0x04'],
    ]);
    const withDirect = [...pools, pool('0x05', B, D, 3000)];
    expect(shape(findRoutes({ pools: withDirect }, B, D))[0]).toEqual(['WETH>tEURC@0x05']);
  });

  it('never routes through a deprecated pool, nor further than two hops', () => {
    expect(findRoutes({ pools, deprecated: new Set(['0x01']) }, C, A)).toEqual([]);
    // tWBTC -> WETH -> tUSDC -> tEURC would be three hops.
    expect(findRoutes({ pools }, C, D)).toEqual([]);
    expect(shape(findRoutes({ pools, deprecated: new Set(['0x03']) }, D, A))).toEqual([
      ['tEURC>tUSDC@0x04'],
    ]);
  });

  it('matches addresses whatever their case', () => {
    expect(findRoutes({ pools }, C.toUpperCase().replace('0X', '0x'), A)).toHaveLength(1);
  });
});

describe('routesOrNoRoute', () => {
  it('is 400 NO_ROUTE (preflight) naming what the input token trades against', () => {
    expect(reachableFrom({ pools }, C).map(label).sort()).toEqual(['WETH', 'tUSDC']);
    let error: unknown;
    try {
      routesOrNoRoute({ pools }, C, D, label);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.code).toBe('NO_ROUTE');
    expect(apiError.status).toBe(400);
    expect(apiError.phase).toBe('preflight');
    expect(apiError.message).toBe('No listed pool or two-hop route connects tWBTC to tEURC');
    expect(apiError.hint).toContain('tWBTC trades against WETH, tUSDC');
  });

  it('says so when no pool holds the token at all', () => {
    expect(() => routesOrNoRoute({ pools: [usdcEurc100] }, C, A, label)).toThrow(
      expect.objectContaining({ hint: expect.stringContaining('No listed pool holds tWBTC') }),
    );
  });

  it('returns the routes when there are some', () => {
    expect(routesOrNoRoute({ pools }, C, A, label)).toHaveLength(1);
  });
});
