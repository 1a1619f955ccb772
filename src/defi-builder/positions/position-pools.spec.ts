import { getAddress } from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import { ApiError } from '../../common/errors/api-error';
import { poolIdOf } from '../encoding/pool-key';
import {
  deprecatedPoolPriceReads,
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
    });
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

  it("reads every deprecated pool's price beside the current one, and picks the position's", () => {
    const reads = deprecatedPoolPriceReads(network);
    expect(Object.keys(reads)).toEqual([`slot0:${poolIdOf(oldKey)}`]);
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
