/**
 * The Safe transaction of a build whose userAddress is a Safe (design §10): the build's `calls`
 * (approvals, then the transaction) as ONE MultiSendCallOnly batch the Safe delegatecalls, at
 * the Safe's current nonce, with its safeTxHash and the EIP-712 typed data its owners sign. The
 * owners' signatures, concatenated in ascending owner order, go into execTransaction, which any
 * account may send (the relay takes it: broadcast/safe-exec.ts). Pure.
 */
import type { SafeContracts } from '../../chain/safe/safe-contracts';
import {
  batchSafeTx,
  safeTxFields,
  SafeTxFields,
  safeTxHash,
  safeTxTypedData,
  TypedData,
} from '../../chain/safe/safe-transactions';
import type { Call } from '../defi-builder.types';
import type { SafeAccount } from '../encoding/safe-account-reads';

export interface SafeTransactionView extends SafeTxFields {
  safeTxHash: string;
  typedData: TypedData;
}

export function safeTransactionOf(
  chainId: number,
  contracts: SafeContracts,
  safe: SafeAccount,
  calls: readonly Call[],
): SafeTransactionView {
  const tx = batchSafeTx(
    contracts.multiSendCallOnly,
    calls.map((call) => ({ to: call.to, data: call.data, value: BigInt(call.value) })),
    safe.nonce,
  );
  return Object.assign(safeTxFields(tx), {
    safeTxHash: safeTxHash(chainId, safe.address, tx),
    typedData: safeTxTypedData(chainId, safe.address, tx),
  });
}
