/**
 * Position discovery from the PositionManager's ERC-721 Transfer logs (v4-periphery
 * PositionManager is a solmate ERC721: Transfer(from, to, id), all three indexed). Every tokenId
 * ever sent to a wallet (a mint is a Transfer from 0x0) is a candidate; the batched read then
 * keeps those the wallet still owns. Pure.
 */
import { getAddress, zeroPadValue } from 'ethers';
import { POSITION_MANAGER } from '../abi/uniswap-v4';
import type { LogFilter, RawLog } from '../chain-rpc.service';
import type { NetworkDefinition } from '../network/network.types';

export const TRANSFER_TOPIC = POSITION_MANAGER.getEvent('Transfer')!.topicHash;

/** Transfers of position NFTs to `owner` (any sender, any tokenId); the block range is paged by the caller. */
export function transfersToFilter(
  network: NetworkDefinition,
  owner: string,
): Omit<LogFilter, 'fromBlock' | 'toBlock'> {
  return {
    address: network.contracts.positionManager,
    topics: [TRANSFER_TOPIC, null, zeroPadValue(getAddress(owner), 32).toLowerCase()],
  };
}

/** The tokenIds of those Transfer logs, each once, ascending. */
export function tokenIdsOf(logs: readonly RawLog[]): bigint[] {
  const ids = new Set<bigint>();
  for (const log of logs) {
    if (log.topics[0]?.toLowerCase() === TRANSFER_TOPIC && log.topics.length === 4)
      ids.add(BigInt(log.topics[3]));
  }
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
