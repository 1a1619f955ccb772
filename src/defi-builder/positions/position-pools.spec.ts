import { getAddress } from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import { ApiError } from '../../common/errors/api-error';
import { poolIdOf, poolKeyOf } from '../encoding/pool-key';
import {
  liquidityPool,
  otherPoolPriceReads,
  poolDeprecated,
  poolPrice,
  positionPool,
} from './position-pools';

const file = devnetFile as NetworkFile;
const current = resolveNetworkFile(file);
const { id: _currentId, ...currentKey } = current.pool;
const oldKey = { ...currentKey, hooks: getAddress('0x0000000000000000000000000000000000000a80') };
const network = resolveNetworkFile({
  ...file,
  deprecated: { pools: [{ id: poolIdOf(oldKey), ...oldKey, reason: 'v1 pool' }] },
});

describe('position pools', () => {
  it('finds the current pool, a deprecated pool (seen at its key), or none', () => {
    expect(positionPool(network, { poolKey: network.pool })).toEqual({
      network,
      deprecated: null,
      id: network.pool.id,
    });
    // Another pool of the market: the network seen at it (one view per pool).
    const eurc = network.pools[3];
    const market = positionPool(network, { poolKey: poolKeyOf(eurc) })!;
    expect(market).toMatchObject({ deprecated: null, id: eurc.id });
    expect(market.network.pool).toBe(eurc);
    expect(positionPool(network, { poolKey: eurc })!.network).toBe(market.network);
    const old = positionPool(network, { poolKey: { ...oldKey } })!;
    expect(old.deprecated?.id).toBe(poolIdOf(oldKey));
    expect(old.network.pool).toEqual(oldKey);
    expect(old.network.contracts).toBe(network.contracts);
    // One view per pool: the positions list compares it to reuse remembered fee reads.
    expect(positionPool(network, { poolKey: oldKey })!.network).toBe(old.network);
    expect(positionPool(network, { poolKey: { ...oldKey, fee: 500 } })).toBeNull();
    expect(positionPool(network, { poolKey: null })).toBeNull();
    expect(positionPool(current, { poolKey: oldKey })).toBeNull();
  });

  it("reads every other pool's price beside the default one, and picks the position's", () => {
    const reads = otherPoolPriceReads(network);
    expect(Object.keys(reads)).toEqual([
      ...network.pools.slice(1).map((p) => `slot0:${p.id}`),
      `slot0:${poolIdOf(oldKey)}`,
    ]);
    expect(reads[`slot0:${poolIdOf(oldKey)}`].call.callData).toContain(poolIdOf(oldKey).slice(2));
    const prices = {
      slot0: { sqrtPriceX96: 1n, tick: 1 },
      [`slot0:${poolIdOf(oldKey)}`]: { sqrtPriceX96: 2n, tick: 2 },
    };
    expect(poolPrice(positionPool(network, { poolKey: oldKey })!, prices).tick).toBe(2);
    expect(poolPrice(positionPool(network, { poolKey: network.pool })!, prices).tick).toBe(1);
  });

  it('refuses a build into a deprecated pool with POOL_DEPRECATED naming the current pool', () => {
    const error = poolDeprecated(network, network.deprecatedPools[0], 'Position 7');
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('POOL_DEPRECATED');
    expect(error.status).toBe(400);
    expect(error.hint).toContain(poolIdOf(network.pool));
    expect(error.hint).toContain(network.pool.hooks);
    expect(error.options.extra).toMatchObject({
      poolId: poolIdOf(oldKey),
      currentPool: { poolId: poolIdOf(network.pool), hooks: network.pool.hooks },
    });
  });
});

describe('the pool of a liquidity request', () => {
  const [spec, wbtc, eurc100, eurc500] = current.pools;
  const t = current.tokens;
  it("takes the pair's only pool, or the poolId of the pair", () => {
    expect(liquidityPool(current, { token0: t.WETH.address, token1: t.tUSDC.address })).toBe(
      current,
    );
    expect(liquidityPool(current, { token0: wbtc.currency0, token1: wbtc.currency1 }).pool).toBe(
      wbtc,
    );
    const at = liquidityPool(current, {
      token0: eurc500.currency0,
      token1: eurc500.currency1,
      poolId: eurc500.id.toUpperCase().replace('0X', '0x'),
    });
    expect(at.pool).toBe(eurc500);
    expect(at.contracts).toBe(current.contracts);
  });

  it('answers POOL_AMBIGUOUS naming both fee tiers when a pair has two pools', () => {
    const error = (() => {
      try {
        liquidityPool(current, { token0: eurc100.currency0, token1: eurc100.currency1 });
      } catch (e) {
        return e as ApiError;
      }
    })()!;
    expect(error.code).toBe('POOL_AMBIGUOUS');
    expect(error.status).toBe(400);
    for (const p of [eurc100, eurc500]) expect(error.hint).toContain(p.id);
    expect(error.hint).toContain('fee 100');
    expect(error.hint).toContain('fee 500');
  });

  it('refuses a poolId of another pair, an unknown poolId and a pair without a pool', () => {
    expect(() =>
      liquidityPool(current, { token0: t.WETH.address, token1: t.tUSDC.address, poolId: wbtc.id }),
    ).toThrow(/is not a pool of token0\/token1/);
    expect(() =>
      liquidityPool(current, {
        token0: spec.currency0,
        token1: spec.currency1,
        poolId: `0x${'12'.repeat(32)}`,
      }),
    ).toThrow(/is not a pool of this network/);
    const [a, b] = [t.tWBTC.address, t.tEURC.address].sort((x, y) =>
      BigInt(x) < BigInt(y) ? -1 : 1,
    );
    expect(() => liquidityPool(current, { token0: a, token1: b })).toThrow(/have no pool/);
    // A token outside the file is left to the preflight (UNSUPPORTED_TOKEN).
    expect(liquidityPool(current, { token0: t.WETH.address, token1: `0x${'ff'.repeat(20)}` })).toBe(
      current,
    );
  });
});
