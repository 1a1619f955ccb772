import { AbiCoder } from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import { POSITION_MANAGER } from '../../chain/abi/uniswap-v4';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import { maxAmountsIn, minAmountsOut, sdkPool, sdkPosition } from '../positions/position-math';
import {
  encodeCollectCalldata,
  encodeDecreaseCalldata,
  encodeIncreaseCalldata,
} from './position-calldata';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const coder = AbiCoder.defaultAbiCoder();
const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
// 1 WETH = 3000 tUSDC, as the devnet initializes the pool.
const PRICE = { sqrtPriceX96: 4339505179874779662909440n, tick: -196257 };
const pool = sdkPool(network, PRICE);
const RANGE = { tickLower: -197_460, tickUpper: -195_060, liquidity: 10n ** 15n };
const DEADLINE = 1_900_000_000;

/** modifyLiquidities(unlockData, deadline) -> the action bytes and their params. */
function plan(data: string) {
  const call = POSITION_MANAGER.parseTransaction({ data })!;
  expect(call.name).toBe('modifyLiquidities');
  expect(call.args[1]).toBe(BigInt(DEADLINE));
  const [actions, params] = coder.decode(['bytes', 'bytes[]'], call.args[0]);
  return { actions: actions as string, params: params as string[] };
}

describe('position calldata (v4-sdk V4PositionManager)', () => {
  it('increase: INCREASE_LIQUIDITY with the slippage maxima, then CLOSE_CURRENCY for each token', () => {
    const addition = sdkPosition(pool, { ...RANGE, liquidity: 10n ** 12n });
    const { actions, params } = plan(
      encodeIncreaseCalldata(addition, { tokenId: 42n, deadline: DEADLINE, slippageBps: 50 }),
    );
    expect(actions).toBe('0x001212');
    const max = maxAmountsIn(addition, 50);
    expect([
      ...coder.decode(['uint256', 'uint256', 'uint128', 'uint128', 'bytes'], params[0]),
    ]).toEqual([42n, 10n ** 12n, max.amount0, max.amount1, '0x']);
    expect(coder.decode(['address'], params[1])[0]).toBe(network.pool.currency0);
    expect(coder.decode(['address'], params[2])[0]).toBe(network.pool.currency1);
  });

  it('decrease: DECREASE_LIQUIDITY of exactly the part, minimums from the current price less slippage, TAKE_PAIR to the sender', () => {
    const whole = sdkPosition(pool, RANGE);
    const part = RANGE.liquidity / 3n;
    const { actions, params } = plan(
      encodeDecreaseCalldata(whole, {
        tokenId: 42n,
        deadline: DEADLINE,
        liquidity: part,
        slippageBps: 100,
        burn: false,
      }),
    );
    expect(actions).toBe('0x0111');
    const min = minAmountsOut(sdkPosition(pool, { ...RANGE, liquidity: part }), 100);
    expect(min.amount0 > 0n && min.amount1 > 0n).toBe(true);
    expect([
      ...coder.decode(['uint256', 'uint256', 'uint128', 'uint128', 'bytes'], params[0]),
    ]).toEqual([42n, part, min.amount0, min.amount1, '0x']);
    // ActionConstants.MSG_SENDER: the owner who signs.
    expect(coder.decode(['address', 'address', 'address'], params[1])[2]).toBe(
      '0x0000000000000000000000000000000000000001',
    );
  });

  it('decrease with burn: BURN_POSITION (all of it, with minimums) + TAKE_PAIR', () => {
    const whole = sdkPosition(pool, RANGE);
    const { actions, params } = plan(
      encodeDecreaseCalldata(whole, {
        tokenId: 42n,
        deadline: DEADLINE,
        liquidity: RANGE.liquidity,
        slippageBps: 50,
        burn: true,
      }),
    );
    expect(actions).toBe('0x0311');
    const min = minAmountsOut(whole, 50);
    expect([...coder.decode(['uint256', 'uint128', 'uint128', 'bytes'], params[0])]).toEqual([
      42n,
      min.amount0,
      min.amount1,
      '0x',
    ]);
  });

  it('collect: DECREASE_LIQUIDITY of 0 + TAKE_PAIR to the recipient', () => {
    const { actions, params } = plan(
      encodeCollectCalldata(sdkPosition(pool, RANGE), {
        tokenId: 42n,
        deadline: DEADLINE,
        recipient: OWNER.toLowerCase(),
      }),
    );
    expect(actions).toBe('0x0111');
    expect([
      ...coder.decode(['uint256', 'uint256', 'uint128', 'uint128', 'bytes'], params[0]),
    ]).toEqual([42n, 0n, 0n, 0n, '0x']);
    expect([...coder.decode(['address', 'address', 'address'], params[1])]).toEqual([
      network.pool.currency0,
      network.pool.currency1,
      OWNER,
    ]);
  });
});
