import { poolKeyOf } from '../encoding/pool-key';
import devnetFile from '../../config/networks/devnet.json';
import { POSITION_MANAGER, STATE_VIEW } from '../../chain/abi/uniswap-v4';
import { decodeRevert } from '../../chain/encoding/revert-decoder';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import { poolIdOf, poolKeyTuple } from '../encoding/pool-key';
import {
  feeGrowthOf,
  feeReads,
  grouped,
  inPool,
  positionOf,
  positionReads,
  uncollectedFees,
  ungrouped,
  unpackTicks,
} from './position-reads';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const Q128 = 1n << 128n;

/** v4-periphery PositionInfoLibrary.initialize: poolId (upper 200 bits) | tickUpper << 32 | tickLower << 8. */
function packInfo(tickLower: number, tickUpper: number): bigint {
  const mask24 = (1n << 24n) - 1n;
  const poolIdBits = BigInt(poolIdOf(network.pool)) & ~((1n << 56n) - 1n);
  return (
    poolIdBits |
    ((BigInt.asUintN(24, BigInt(tickUpper)) & mask24) << 32n) |
    ((BigInt.asUintN(24, BigInt(tickLower)) & mask24) << 8n)
  );
}

describe('position reads', () => {
  it('encodes the PositionManager reads as ethers does, each allowed to fail', () => {
    const reads = positionReads(network, 42n);
    const pm = network.contracts.positionManager;
    expect(reads.owner.call).toEqual({
      target: pm,
      allowFailure: true,
      callData: POSITION_MANAGER.encodeFunctionData('ownerOf', [42n]),
    });
    expect(reads.info.call.callData).toBe(
      POSITION_MANAGER.encodeFunctionData('getPoolAndPositionInfo', [42n]),
    );
    expect(reads.liquidity.call.callData).toBe(
      POSITION_MANAGER.encodeFunctionData('getPositionLiquidity', [42n]),
    );
  });

  it('unpacks signed ticks from PositionInfo', () => {
    expect(unpackTicks(packInfo(-196_860, -195_060))).toEqual({
      tickLower: -196_860,
      tickUpper: -195_060,
    });
    expect(unpackTicks(packInfo(-887_220, 887_220))).toEqual({
      tickLower: -887_220,
      tickUpper: 887_220,
    });
  });

  it('decodes a live position of the pool, and an unknown or burned one', () => {
    const reads = positionReads(network, 7n);
    const live = positionOf(7n, {
      owner: reads.owner.decode({
        ok: true,
        returnData: POSITION_MANAGER.encodeFunctionResult('ownerOf', [OWNER]),
      }),
      info: reads.info.decode({
        ok: true,
        returnData: POSITION_MANAGER.encodeFunctionResult('getPoolAndPositionInfo', [
          poolKeyTuple(network.pool),
          packInfo(-600, 1200),
        ]),
      }),
      liquidity: reads.liquidity.decode({
        ok: true,
        returnData: POSITION_MANAGER.encodeFunctionResult('getPositionLiquidity', [123n]),
      }),
    });
    expect(live).toEqual({
      tokenId: 7n,
      owner: OWNER,
      poolKey: poolKeyOf(network.pool),
      tickLower: -600,
      tickUpper: 1200,
      liquidity: 123n,
    });
    expect(inPool(network, live)).toBe(true);

    const zeroKey = ['0x' + '00'.repeat(20), '0x' + '00'.repeat(20), 0, 0, '0x' + '00'.repeat(20)];
    const burned = positionOf(8n, {
      owner: reads.owner.decode({ ok: false, revert: decodeRevert('0x') }),
      info: reads.info.decode({
        ok: true,
        returnData: POSITION_MANAGER.encodeFunctionResult('getPoolAndPositionInfo', [zeroKey, 0n]),
      }),
      liquidity: 0n,
    });
    expect(burned).toMatchObject({ owner: null, poolKey: null });
    expect(inPool(network, burned)).toBe(false);
    expect(inPool(network, { ...live, poolKey: { ...network.pool, fee: 500 } })).toBe(false);
  });

  it('reads fee growth from StateView with the PositionManager as owner and the tokenId as salt', () => {
    const position = {
      tokenId: 9n,
      owner: OWNER,
      poolKey: network.pool,
      tickLower: -600,
      tickUpper: 600,
      liquidity: 1n,
    };
    const reads = feeReads(network, position);
    expect(reads.last.call.callData).toBe(
      STATE_VIEW.encodeFunctionData('getPositionInfo(bytes32,address,int24,int24,bytes32)', [
        poolIdOf(network.pool),
        network.contracts.positionManager,
        -600,
        600,
        '0x' + 9n.toString(16).padStart(64, '0'),
      ]),
    );
    expect(reads.inside.call.callData).toBe(
      STATE_VIEW.encodeFunctionData('getFeeGrowthInside', [poolIdOf(network.pool), -600, 600]),
    );
    const growth = feeGrowthOf({
      last: reads.last.decode({
        ok: true,
        returnData: STATE_VIEW.encodeFunctionResult(
          'getPositionInfo(bytes32,address,int24,int24,bytes32)',
          [1n, 5n, 6n],
        ),
      }),
      inside: reads.inside.decode({
        ok: true,
        returnData: STATE_VIEW.encodeFunctionResult('getFeeGrowthInside', [7n, 8n]),
      }),
    });
    expect(growth).toEqual({ last0: 5n, last1: 6n, inside0: 7n, inside1: 8n });
  });

  it('prices uncollected fees as liquidity x (inside - last) / 2^128, modulo 2^256 like v4-core', () => {
    const L = 10n ** 18n;
    expect(
      uncollectedFees(L, { last0: 0n, last1: 0n, inside0: 3n * Q128, inside1: Q128 / 2n }),
    ).toEqual({ amount0: 3n * L, amount1: L / 2n });
    // feeGrowthInside wraps around (core subtracts unchecked): still the true growth.
    const max = (1n << 256n) - 1n;
    expect(uncollectedFees(L, { last0: max, last1: 0n, inside0: Q128 - 1n, inside1: 0n })).toEqual({
      amount0: L,
      amount1: 0n,
    });
  });

  it('groups many positions into one batch and takes each back out', () => {
    const batch = {
      ...grouped('1', positionReads(network, 1n)),
      ...grouped('12', positionReads(network, 12n)),
    };
    expect(Object.keys(batch)).toEqual([
      '1:owner',
      '1:info',
      '1:liquidity',
      '12:owner',
      '12:info',
      '12:liquidity',
    ]);
    const decoded = { '1:liquidity': 5n, '12:liquidity': 6n, '12:owner': OWNER };
    expect(ungrouped('12', decoded)).toEqual({ liquidity: 6n, owner: OWNER });
  });
});
