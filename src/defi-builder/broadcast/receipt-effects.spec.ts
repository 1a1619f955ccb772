import { getAddress, ZeroAddress, zeroPadValue } from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import { ERC20 } from '../../chain/abi/erc20';
import { POOL_MANAGER } from '../../chain/abi/uniswap-v4';
import { WETH_EVENTS } from '../../chain/abi/weth';
import type { RawLog } from '../../chain/chain-rpc.service';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import { poolIdOf } from '../encoding/pool-key';
import { swapAmounts } from './receipt-effects';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const { poolManager, universalRouter } = network.contracts;
const WETH = network.tokens.WETH.address;
const wallet = '0x1111111111111111111111111111111111111111';
const wethIs0 = network.pool.currency0.toLowerCase() === WETH.toLowerCase();
const other = wethIs0 ? network.pool.currency1 : network.pool.currency0;

function log(address: string, encoded: { topics: readonly string[]; data: string }): RawLog {
  return {
    address,
    topics: [...encoded.topics],
    data: encoded.data,
    blockNumber: '0x1',
    transactionHash: `0x${'00'.repeat(32)}`,
    logIndex: '0x0',
  };
}

/** A Swap of `poolId` where the swapper pays 100 of `other` and receives 40 WETH. */
function swapLog(poolId = poolIdOf(network.pool)): RawLog {
  const [amount0, amount1] = wethIs0 ? [40n, -100n] : [-100n, 40n];
  return log(
    poolManager,
    POOL_MANAGER.encodeEventLog('Swap', [
      poolId,
      universalRouter,
      amount0,
      amount1,
      2n ** 96n,
      1n,
      0,
      3000,
    ]),
  );
}
const paidTransfer = log(other, ERC20.encodeEventLog('Transfer', [wallet, poolManager, 100n]));

describe('swapAmounts', () => {
  it("reads only the network pool's Swap event", () => {
    expect(
      swapAmounts(network, [swapLog(zeroPadValue('0x01', 32)), paidTransfer], wallet),
    ).toBeNull();
  });

  it('reports native ETH out only when the router unwrapped WETH', () => {
    const withdrawal = log(WETH, WETH_EVENTS.encodeEventLog('Withdrawal', [universalRouter, 40n]));
    expect(swapAmounts(network, [swapLog(), paidTransfer, withdrawal], wallet)).toEqual({
      tokenIn: getAddress(other),
      amountIn: '100',
      tokenOut: ZeroAddress,
      amountOut: '40',
    });
    // WETH paid to another recipient (no Transfer to the wallet, no unwrap): WETH, not ETH.
    expect(swapAmounts(network, [swapLog(), paidTransfer], wallet)).toMatchObject({
      tokenOut: getAddress(WETH),
      amountOut: '40',
    });
  });
});
