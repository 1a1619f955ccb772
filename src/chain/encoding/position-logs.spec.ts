import { AbiCoder, id, zeroPadValue } from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import { POSITION_MANAGER } from '../abi/uniswap-v4';
import type { RawLog } from '../chain-rpc.service';
import { NetworkFile, resolveNetworkFile } from '../network/network-definition';
import { tokenIdsOf, TRANSFER_TOPIC, transfersToFilter } from './position-logs';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ZERO = '0x0000000000000000000000000000000000000000';

function transferLog(from: string, to: string, tokenId: bigint): RawLog {
  const { topics, data } = POSITION_MANAGER.encodeEventLog('Transfer', [from, to, tokenId]);
  return {
    address: network.contracts.positionManager,
    topics,
    data,
    blockNumber: '0x1',
    transactionHash: `0x${'00'.repeat(32)}`,
    logIndex: '0x0',
  };
}

describe('position logs', () => {
  it('filters PositionManager ERC-721 Transfers to the owner (topic2), any sender and tokenId', () => {
    expect(TRANSFER_TOPIC).toBe(id('Transfer(address,address,uint256)'));
    expect(transfersToFilter(network, OWNER.toLowerCase())).toEqual({
      address: network.contracts.positionManager,
      topics: [TRANSFER_TOPIC, null, zeroPadValue(OWNER, 32).toLowerCase()],
    });
  });

  it('takes each tokenId once, ascending, and ignores ERC-20 Transfers (3 topics, amount in data)', () => {
    const erc20 = {
      ...transferLog(ZERO, OWNER, 1n),
      topics: transferLog(ZERO, OWNER, 1n).topics.slice(0, 3),
      data: AbiCoder.defaultAbiCoder().encode(['uint256'], [5n]),
    };
    const logs = [
      transferLog(ZERO, OWNER, 7n),
      transferLog(ZERO, OWNER, 3n),
      transferLog('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', OWNER, 7n), // sent back later
      erc20,
    ];
    expect(tokenIdsOf(logs)).toEqual([3n, 7n]);
  });
});
