/**
 * What a mined transaction did to the wallet, decoded from its receipt's logs, and how that
 * compares with the receipt's simulation. Pure.
 *
 * The wallet is the receipt's: the sender of its transaction, or a Safe whose execTransaction an
 * owner or a relayer sent. ERC-20: every Transfer log (three topics) from or to the wallet, summed
 * per token. ETH: what the wallet sent with its call (ethSentBy), plus what the UniversalRouter
 * unwrapped for it (WETH Withdrawal logs by the router: our swaps' UNWRAP_WETH pays the ETH to the
 * router's caller, the exact-output refund too). Gas fees are not balance changes of the trade and
 * are left out, as the simulation (eth_call, gas price 0) leaves them out; a Safe pays none. A
 * reverted transaction moved nothing.
 */
import { getAddress, zeroPadValue } from 'ethers';
import { ERC20 } from '../../chain/abi/erc20';
import { WETH_EVENTS } from '../../chain/abi/weth';
import type { RawLog } from '../../chain/chain-rpc.service';
import { BalanceChange, Deviation, ETH_TOKEN, ReceiptTolerance } from '../receipt.types';

const TRANSFER = ERC20.getEvent('Transfer')!.topicHash;
const WITHDRAWAL = WETH_EVENTS.getEvent('Withdrawal')!.topicHash;

/** A mined transaction as one wallet saw it. */
export interface WalletTransaction {
  /** Whose balances count: the receipt's wallet. */
  wallet: string;
  /** The ETH the wallet sent with its call (ethSentBy). */
  ethSent: bigint;
  status: 'success' | 'reverted';
  logs: readonly RawLog[];
}

/**
 * The ETH `wallet` sent with its built call: the transaction's value when the wallet sent the
 * transaction itself; else (a Safe's execTransaction, which carries none: safe-exec.ts) the value
 * of the call it made, which its call key (call-key.ts) ties to the built transaction's `value`.
 */
export function ethSentBy(
  wallet: string,
  mined: { from: string; value: bigint },
  built: { value: string },
): bigint {
  return mined.from.toLowerCase() === wallet.toLowerCase() ? mined.value : BigInt(built.value);
}

/** The wallet's balance changes, sorted by token address (lower case), zero ones left out. */
export function executedBalanceChanges(
  tx: WalletTransaction,
  contracts: { weth: string; universalRouter: string },
): BalanceChange[] {
  if (tx.status === 'reverted') return [];
  const wallet = zeroPadValue(tx.wallet.toLowerCase(), 32);
  const router = zeroPadValue(contracts.universalRouter.toLowerCase(), 32);
  const weth = contracts.weth.toLowerCase();
  const deltas = new Map<string, bigint>([[ETH_TOKEN, -tx.ethSent]]);
  const add = (token: string, amount: bigint) =>
    deltas.set(token, (deltas.get(token) ?? 0n) + amount);
  for (const log of tx.logs) {
    const [topic0, topic1, topic2] = log.topics.map((t) => t.toLowerCase());
    if (topic0 === TRANSFER && log.topics.length === 3) {
      const amount = BigInt(log.data);
      if (topic1 === wallet) add(getAddress(log.address), -amount);
      if (topic2 === wallet) add(getAddress(log.address), amount);
    } else if (topic0 === WITHDRAWAL && log.address.toLowerCase() === weth && topic1 === router) {
      add(ETH_TOKEN, BigInt(log.data));
    }
  }
  return sortedChanges(deltas);
}

export function sortedChanges(deltas: Map<string, bigint>): BalanceChange[] {
  return [...deltas]
    .filter(([, delta]) => delta !== 0n)
    .sort(([a], [b]) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
    .map(([token, delta]) => ({ token, delta: delta.toString() }));
}

/**
 * The changes that stray from the simulation beyond the receipt's tolerance: an exact token by
 * anything, another by more than toleranceBps of its simulated change, and any token the
 * simulation did not move; with no tolerance (null) only unsimulated tokens count.
 */
export function deviationsOf(
  simulated: readonly BalanceChange[],
  executed: readonly BalanceChange[],
  tolerance: ReceiptTolerance,
): Deviation[] {
  const sim = new Map(simulated.map((c) => [c.token.toLowerCase(), BigInt(c.delta)]));
  const exe = new Map(executed.map((c) => [c.token.toLowerCase(), BigInt(c.delta)]));
  const exact = new Set(tolerance.exact.map((t) => t.toLowerCase()));
  const tokens = [...new Set([...sim.keys(), ...exe.keys()])].sort();
  const deviations: Deviation[] = [];
  for (const token of tokens) {
    const s = sim.get(token) ?? 0n;
    const e = exe.get(token) ?? 0n;
    if (s === e) continue;
    const bps = exact.has(token) ? 0 : tolerance.toleranceBps;
    const abs = (v: bigint) => (v < 0n ? -v : v);
    const beyond =
      s === 0n || bps === 0 || (bps !== null && abs(e - s) * 10_000n > abs(s) * BigInt(bps));
    if (beyond)
      deviations.push({
        token: getAddress(token),
        simulated: s.toString(),
        executed: e.toString(),
        toleranceBps: bps ?? 0,
      });
  }
  return deviations;
}
