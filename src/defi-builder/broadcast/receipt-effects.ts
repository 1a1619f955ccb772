/**
 * What a confirmed transaction did, read from its receipt's logs. Pure.
 *
 * Swap: the PoolManager's Swap event of the network's pool (topic 1 = its pool id; a Swap of any
 * other pool is not ours to report) gives the amounts (the swapper's balance delta: negative =
 * paid in); the wallet's own ERC-20 Transfer logs of those currencies, when there are some, give
 * what left and reached the wallet. A side without a Transfer of the wallet is native ETH only
 * when it is WETH and the router wrapped (WETH Deposit to the router) or unwrapped (WETH
 * Withdrawal by the router) it; otherwise it is the token itself, with the pool amount. Mint: the PositionManager's ERC-721 Transfer
 * from the zero address carries the new tokenId.
 */
import { ZeroAddress, getAddress, zeroPadValue } from 'ethers';
import type { RawLog } from '../../chain/chain-rpc.service';
import { ERC20 } from '../../chain/abi/erc20';
import { POOL_MANAGER } from '../../chain/abi/uniswap-v4';
import { WETH_EVENTS } from '../../chain/abi/weth';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { poolIdOf } from '../encoding/pool-key';

const TRANSFER = ERC20.getEvent('Transfer')!.topicHash;
const SWAP = POOL_MANAGER.getEvent('Swap')!;
const ZERO_TOPIC = zeroPadValue(ZeroAddress, 32);
const DEPOSIT = WETH_EVENTS.getEvent('Deposit')!.topicHash;
const WITHDRAWAL = WETH_EVENTS.getEvent('Withdrawal')!.topicHash;

export interface SwapAmounts {
  /** Token paid (the zero address: native ETH). */
  tokenIn: string;
  amountIn: string;
  /** Token received (the zero address: native ETH). */
  tokenOut: string;
  amountOut: string;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const topicOf = (address: string) => zeroPadValue(address.toLowerCase(), 32);

/** Sum of the ERC-20 Transfers of `token` from/to `wallet` in `logs`; null when there are none. */
function transferred(
  logs: RawLog[],
  token: string,
  wallet: string,
  direction: 'from' | 'to',
): bigint | null {
  const index = direction === 'from' ? 1 : 2;
  const walletTopic = topicOf(wallet);
  let sum: bigint | null = null;
  for (const log of logs) {
    if (!same(log.address, token) || log.topics[0] !== TRANSFER || log.topics.length !== 3)
      continue;
    if (log.topics[index]?.toLowerCase() !== walletTopic) continue;
    sum = (sum ?? 0n) + BigInt(log.data);
  }
  return sum;
}

export function swapAmounts(
  network: NetworkDefinition,
  logs: RawLog[],
  wallet: string,
): SwapAmounts | null {
  const poolId = poolIdOf(network.pool).toLowerCase();
  const swap = logs.find(
    (log) =>
      same(log.address, network.contracts.poolManager) &&
      log.topics[0] === SWAP.topicHash &&
      log.topics[1]?.toLowerCase() === poolId,
  );
  if (!swap) return null;
  const parsed = POOL_MANAGER.parseLog({ topics: swap.topics, data: swap.data });
  if (!parsed) return null;
  const amount0 = parsed.args.amount0 as bigint;
  const amount1 = parsed.args.amount1 as bigint;
  const { currency0, currency1 } = network.pool;
  const [currencyIn, poolIn, currencyOut, poolOut] =
    amount0 < 0n
      ? [currency0, -amount0, currency1, amount1]
      : [currency1, -amount1, currency0, amount0];
  const paid = transferred(logs, currencyIn, wallet, 'from');
  const received = transferred(logs, currencyOut, wallet, 'to');
  const weth = network.tokens.WETH.address;
  const router = network.contracts.universalRouter;
  const ethIn = paid === null && same(currencyIn, weth) && wethEvent(logs, weth, DEPOSIT, router);
  const ethOut =
    received === null && same(currencyOut, weth) && wethEvent(logs, weth, WITHDRAWAL, router);
  return {
    tokenIn: ethIn ? ZeroAddress : getAddress(currencyIn),
    amountIn: (paid ?? poolIn).toString(),
    tokenOut: ethOut ? ZeroAddress : getAddress(currencyOut),
    amountOut: (received ?? poolOut).toString(),
  };
}

/** A WETH Deposit (to) or Withdrawal (by) `account` in the logs. */
function wethEvent(logs: RawLog[], weth: string, topic: string, account: string): boolean {
  const accountTopic = topicOf(account);
  return logs.some(
    (log) =>
      same(log.address, weth) &&
      log.topics[0] === topic &&
      log.topics[1]?.toLowerCase() === accountTopic,
  );
}

/** The tokenId a mint created: the PositionManager's Transfer from the zero address. */
export function mintedTokenId(network: NetworkDefinition, logs: RawLog[]): string | null {
  const mint = logs.find(
    (log) =>
      same(log.address, network.contracts.positionManager) &&
      log.topics[0] === TRANSFER &&
      log.topics.length === 4 &&
      log.topics[1]?.toLowerCase() === ZERO_TOPIC,
  );
  return mint ? BigInt(mint.topics[3]).toString() : null;
}
