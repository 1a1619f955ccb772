import devnetFile from '../../config/networks/devnet.json';
import { poolIdOf } from '../encoding/pool-key';
import { resolveMarket } from './market-definition';
import { NetworkFile, resolveNetworkFile } from './network-definition';
import type { MarketFilePool } from './network.types';

const file = devnetFile as NetworkFile;
const hook = file.contracts.complianceHook!;
const withPools = (pools: MarketFilePool[], tokens = file.tokens): NetworkFile => ({
  ...file,
  tokens,
  pools,
});
const [spec, wbtc, eurc100] = file.pools!;

describe('market definition (the network file tokens and pools)', () => {
  it('resolves the devnet market: four tokens, four pools, the spec pool first and as `pool`', () => {
    const net = resolveNetworkFile(file);
    expect(Object.keys(net.tokens)).toEqual(['WETH', 'tUSDC', 'tWBTC', 'tEURC']);
    expect(net.tokens.tWBTC).toMatchObject({ symbol: 'tWBTC', decimals: 8 });
    expect(net.pools.map((p) => p.id)).toEqual(file.pools!.map((p) => p.id));
    expect(net.pool).toBe(net.pools[0]);
    for (const p of net.pools) expect(poolIdOf(p)).toBe(p.id);
  });

  it('takes symbols for currencies and fills in the hook and the id', () => {
    const market = resolveMarket(
      withPools([{ id: null, currency0: 'tEURC', currency1: 'tUSDC', fee: 500, tickSpacing: 10 }]),
      hook,
    );
    // The spec pool is always part of the market, first.
    expect(market.pools.map((p) => p.id)).toEqual([spec.id, file.pools![3].id]);
  });

  it.each<[string, NetworkFile, RegExp]>([
    [
      'a token not listed',
      withPools([{ ...wbtc, currency0: '0x000000000000000000000000000000000000dEaD' }]),
      /pools\[0\]\.currency0 .* is not a token of the file/,
    ],
    [
      'unsorted currencies',
      withPools([{ ...wbtc, currency0: wbtc.currency1, currency1: wbtc.currency0 }]),
      /currency0 must be the lower address/,
    ],
    [
      'an id that is not the key',
      withPools([{ ...eurc100, id: spec.id }]),
      /pools\[0\]\.id .* is not the PoolId of its key/,
    ],
    [
      'another hook',
      withPools([{ ...eurc100, id: null, hooks: '0x0000000000000000000000000000000000000a80' }]),
      /is not the current ComplianceHook/,
    ],
    ['a pool listed twice', withPools([eurc100, eurc100]), /lists the pool .* a second time/],
    ['a bad fee', withPools([{ ...eurc100, id: null, fee: 2_000_000 }]), /fee must be an integer/],
    [
      'a price of another token',
      withPools([{ ...eurc100, initialPrice: { WETH: '1', tUSDC: '1' } }]),
      /initialPrice must give an amount of tEURC and of tUSDC/,
    ],
    ['tUSDC missing', withPools([], { WETH: file.tokens.WETH }), /tokens\.tUSDC is missing/],
    [
      'a symbol key that differs',
      withPools([], { ...file.tokens, tBTC: { ...file.tokens.tWBTC, symbol: 'tWBTC' } }),
      /tokens\.tBTC\.symbol is "tWBTC"/,
    ],
    [
      'two symbols at one address',
      withPools([], { ...file.tokens, tBTC: { ...file.tokens.tWBTC, symbol: undefined } }),
      /is also devnet\.tokens\.tWBTC/,
    ],
    [
      'bad decimals',
      withPools([], { ...file.tokens, tWBTC: { ...file.tokens.tWBTC, decimals: 99 } }),
      /decimals must be an integer/,
    ],
  ])('refuses %s with a message naming the field', (_label, bad, message) => {
    expect(() => resolveNetworkFile(bad)).toThrow(message);
  });
});
