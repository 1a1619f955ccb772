/**
 * The attester's EIP-1559 fee policy, as pure functions of the chain's fee history (no Nest, no
 * provider): what to offer for a new transaction, and what to offer to replace a stuck one.
 */

export interface Eip1559Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** The fields of an eth_feeHistory answer the policy reads (hex quantities). */
export interface FeeHistory {
  /** One per block asked for, plus the base fee of the next block (last entry). */
  baseFeePerGas: string[];
  /** Per block, the tip at each requested percentile. */
  reward?: string[][];
}

/** Blocks of history and the tip percentile they are read at (eth_feeHistory params). */
export const FEE_HISTORY_BLOCKS = 10;
export const TIP_PERCENTILE = 50;

/**
 * The least tip offered: op-geth's floor for suggested tips (--gpo.minsuggestedpriorityfee,
 * 0.001 gwei, https://github.com/ethereum-optimism/op-geth/blob/optimism/eth/gasprice/optimism-gasprice.go).
 * Empty blocks report a zero tip, and a zero tip cannot be bumped by a percentage.
 */
export const MIN_PRIORITY_FEE_WEI = 1_000_000n;

/** Geth (txpool.pricebump) and EDR refuse a replacement unless both fees grow by 10%. */
const PRICE_BUMP_PERCENT = 10n;

export interface SuggestedFees extends Eip1559Fees {
  /** The base fee of the next block. */
  nextBaseFee: bigint;
}

/**
 * The well-known policy ethers' getFeeData applies (maxFee = 2 x base fee + tip, room for six
 * full blocks of +12.5% base fee), with the tip taken from what recent blocks paid (the median of
 * their 50th-percentile tips) instead of a fixed 1 gwei.
 */
export function suggestFees(history: FeeHistory): SuggestedFees {
  const baseFees = history.baseFeePerGas.map((fee) => BigInt(fee));
  if (baseFees.length === 0) throw new Error('eth_feeHistory returned no base fee');
  const nextBaseFee = baseFees[baseFees.length - 1];
  const tips = (history.reward ?? [])
    .map((rewards) => BigInt(rewards[0] ?? 0))
    .filter((tip) => tip > 0n)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const median = tips.length > 0 ? tips[Math.floor(tips.length / 2)] : 0n;
  const tip = median > MIN_PRIORITY_FEE_WEI ? median : MIN_PRIORITY_FEE_WEI;
  return { nextBaseFee, maxPriorityFeePerGas: tip, maxFeePerGas: 2n * nextBaseFee + tip };
}

/** What the network charges now (next base fee + tip) is above the cap: nothing may be sent. */
export class FeeOverCapError extends Error {
  constructor(
    readonly priceWei: bigint,
    readonly capWei: bigint,
  ) {
    super(`gas price ${priceWei} wei is above the cap ${capWei} wei`);
    this.name = 'FeeOverCapError';
  }
}

/**
 * Fees for a new transaction under `capWei`. The cap bounds maxFeePerGas (the most ever paid);
 * the transaction is refused only when the price of the next block (base fee + tip) is above it,
 * since a lower maxFee would not be mined at all.
 */
export function feesWithinCap(suggested: SuggestedFees, capWei: bigint): Eip1559Fees {
  const price = suggested.nextBaseFee + suggested.maxPriorityFeePerGas;
  if (price > capWei) throw new FeeOverCapError(price, capWei);
  return {
    maxFeePerGas: min(suggested.maxFeePerGas, capWei),
    maxPriorityFeePerGas: suggested.maxPriorityFeePerGas,
  };
}

/** The least the node accepts to replace `previous`: both fees +10%, rounded up past geth's floor. */
export function minimumBump(previous: Eip1559Fees): Eip1559Fees {
  const bump = (fee: bigint) => (fee * (100n + PRICE_BUMP_PERCENT)) / 100n + 1n;
  return {
    maxFeePerGas: bump(previous.maxFeePerGas),
    maxPriorityFeePerGas: bump(previous.maxPriorityFeePerGas),
  };
}

/**
 * Fees to replace `previous`: at least the minimum bump, at least what the chain asks now (a base
 * fee that rose since is covered), maxFee clamped to the cap; null when even the minimum bump is
 * over the cap (the transaction is then left to mine as it is).
 */
export function replacementFees(
  previous: Eip1559Fees,
  now: SuggestedFees,
  capWei: bigint,
): Eip1559Fees | null {
  const least = minimumBump(previous);
  if (least.maxFeePerGas > capWei) return null;
  const maxFeePerGas = min(max(least.maxFeePerGas, now.maxFeePerGas), capWei);
  const maxPriorityFeePerGas = max(least.maxPriorityFeePerGas, now.maxPriorityFeePerGas);
  if (least.maxPriorityFeePerGas > maxFeePerGas) return null;
  return { maxFeePerGas, maxPriorityFeePerGas: min(maxPriorityFeePerGas, maxFeePerGas) };
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
