/**
 * What a confirmed transaction did, read from its receipt's logs. Pure.
 *
 * Swap: the PoolManager's Swap events of the network's listed pools (topic 1 = the pool id; a
 * Swap of any other pool is not ours to report), one per hop of the route, give the amounts (the
 * swapper's balance delta: negative = paid in; the first hop's input, the last hop's output); the wallet's own ERC-20 Transfer logs of those currencies, when there are some, give
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
import { marketOf } from '../routing/market-pools';

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

/** The side a Swap event paid in and took out: currency and amount (the swapper's delta). */
function swapSides(
  pool: { currency0: string; currency1: string },
  data: { topics: readonly string[]; data: string },
) {
  const parsed = POOL_MANAGER.parseLog(data);
  if (!parsed) return null;
  const amount0 = parsed.args.amount0 as bigint;
  const amount1 = parsed.args.amount1 as bigint;
  const { currency0, currency1 } = pool;
  return amount0 < 0n
    ? { currencyIn: currency0, poolIn: -amount0, currencyOut: currency1, poolOut: amount1 }
    : { currencyIn: currency1, poolIn: -amount1, currencyOut: currency0, poolOut: amount0 };
}

export function swapAmounts(
  network: NetworkDefinition,
  logs: RawLog[],
  wallet: string,
): SwapAmounts | null {
  // The Swap events of listed pools, in log order: one per hop of the route (issue 42).
  const pools = new Map(marketOf(network).pools.map((p) => [p.id.toLowerCase(), p]));
  const hops = logs.flatMap((log) => {
    const pool = pools.get(log.topics[1]?.toLowerCase() ?? '');
    if (!pool || !same(log.address, network.contracts.poolManager)) return [];
    if (log.topics[0] !== SWAP.topicHash) return [];
    const sides = swapSides(pool, { topics: log.topics, data: log.data });
    return sides ? [sides] : [];
  });
  if (hops.length === 0) return null;
  const { currencyIn, poolIn } = hops[0];
  const { currencyOut, poolOut } = hops[hops.length - 1];
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
