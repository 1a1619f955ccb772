/**
 * The call list of a build response (issue 31 §3, design §8): the approvals it asks for, in
 * order, then the transaction, as EIP-5792 calls `{ to, data, value }` (https://eips.ethereum.org/EIPS/eip-5792)
 * for `wallet_sendCalls`. It is the path WITHOUT a signed permit: the Permit2.approve steps that
 * permitData could replace stay in (a request that carried a signed permit has none left, and its
 * transaction embeds the permit). No gas: a batch wallet plans the batch, and a plain wallet
 * sending the calls one by one estimates each when its turn comes, after the approvals are mined
 * (the transaction's own `gas` was planned before them). Pure.
 */
import type { Call } from '../defi-builder.types';
import type { UnsignedTx } from '../encoding/approvals';

export function callsOf(
  approvals: ReadonlyArray<{ transaction: UnsignedTx }>,
  transaction: Call,
): Call[] {
  return [...approvals.map((a) => a.transaction), transaction].map(({ to, data, value }) => ({
    to,
    data,
    value,
  }));
}
