import { createHash } from 'node:crypto';

/**
 * What ties a mined transaction to the receipt of its build: SHA-256 over its sender, target,
 * value and calldata (the calldata holds the amounts, the limits and the deadline, so two builds
 * rarely share one). The same for the built transaction and for a signed one. Pure.
 */
export function callKeyOf(tx: {
  from: string;
  to: string;
  value: bigint | string;
  data: string;
}): string {
  return createHash('sha256')
    .update(
      `${tx.from.toLowerCase()}|${tx.to.toLowerCase()}|${BigInt(tx.value)}|${tx.data.toLowerCase()}`,
    )
    .digest('hex');
}
