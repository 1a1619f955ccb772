/**
 * The relay's Safe unwrap step (design §10): a signed transaction calling `execTransaction` on a
 * Safe is relayed only when what the Safe will execute is exactly what the builders produce, judged
 * by the same shape check as any transaction (broadcast-targets.ts), call by call, with the Safe
 * as the sender:
 *
 * - operation 1 (DELEGATECALL) to MultiSendCallOnly 1.4.1, whose batch is our calls: approvals,
 *   then at most one trade or position change, last (the build's `safeTransaction`); or
 *   operation 0, one call of our shapes;
 * - no refund and no gas limit of its own (safeTxGas, baseGas, gasPrice 0, no gas token, no refund
 *   receiver): the Safe pays nothing out to the relayer, and a failing batch reverts the whole
 *   transaction instead of being mined as a successful ExecutionFailure;
 * - no ETH sent with execTransaction itself.
 *
 * Pure. Whether `to` really is a Safe (its code, singleton, no guard) and is bound to the caller is
 * checked against the chain and the database by SafeExecChecks (safe-exec.service.ts).
 */
import { ZeroAddress } from 'ethers';
import { safeContractsFor } from '../../chain/safe/safe-contracts';
import {
  decodeExecTransaction,
  decodeMultiSend,
  MultiSendFormatError,
  SAFE_OPERATION,
} from '../../chain/safe/safe-transactions';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';
import { broadcastKind, TargetCall, TxKind } from './broadcast-targets';

export interface SafeExec {
  /** The Safe (the signed transaction's `to`). */
  safe: string;
  operation: 0 | 1;
  /** The calls the Safe makes, in order, each of the builders' shapes. */
  calls: Array<{ to: string; data: string; value: bigint }>;
  /** The kind of each call. */
  kinds: TxKind[];
  /** The batch's kind: its last call's (the trade or position change after its approvals). */
  kind: TxKind;
}

const APPROVALS: readonly TxKind[] = ['approval', 'permit2-approval'];

function refused(call: TargetCall, reason: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(
    'BROADCAST_TARGET_NOT_ALLOWED',
    `The relay does not send this transaction: its Safe transaction ${reason} (to ${call.to ?? 'null'}, selector execTransaction)`,
    {
      details: [
        Object.assign(
          { field: 'signedTransaction', to: call.to, selector: 'execTransaction', reason },
          extra,
        ),
      ],
    },
  );
}

/**
 * The Safe transaction `call` carries, checked, or null when `call` is no execTransaction (or the
 * network's chain has no Safe deployment): the caller then judges it as any transaction.
 * Throws BROADCAST_TARGET_NOT_ALLOWED for an execTransaction of any other shape.
 */
export function safeExecOf(network: NetworkDefinition, call: TargetCall): SafeExec | null {
  const safeContracts = safeContractsFor(network.chainId);
  const exec = call.to ? decodeExecTransaction(call.data) : null;
  if (!safeContracts || !exec || !call.to) return null;
  const safe = call.to;
  if ((call.value ?? 0n) !== 0n)
    throw refused(call, `comes with ${call.value} wei; the Safe pays from its own balance`, {
      parameter: 'value',
    });
  const refund = [exec.safeTxGas, exec.baseGas, exec.gasPrice].some((v) => v !== 0n);
  if (refund || exec.gasToken !== ZeroAddress || exec.refundReceiver !== ZeroAddress)
    throw refused(
      call,
      'sets safeTxGas, baseGas, gasPrice, gasToken or refundReceiver; the service builds them 0 (no refund, all gas)',
      { parameter: 'safeTxGas' },
    );

  let calls: SafeExec['calls'];
  if (exec.operation === SAFE_OPERATION.DELEGATE_CALL) {
    if (exec.to !== safeContracts.multiSendCallOnly || exec.value !== 0n)
      throw refused(
        call,
        `delegatecalls ${exec.to}; only MultiSendCallOnly ${safeContracts.multiSendCallOnly}, without value`,
        { parameter: 'to' },
      );
    try {
      calls = decodeMultiSend(exec.data);
    } catch (err) {
      if (!(err instanceof MultiSendFormatError)) throw err;
      throw refused(call, `batch is not a MultiSendCallOnly batch: ${err.message}`, {
        parameter: 'data',
      });
    }
  } else calls = [{ to: exec.to, data: exec.data, value: exec.value }];
  if (calls.length === 0) throw refused(call, 'batch is empty', { parameter: 'data' });

  const kinds = calls.map((inner, index) => {
    try {
      return broadcastKind(network, {
        to: inner.to,
        data: inner.data,
        value: inner.value,
        from: safe,
      });
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'BROADCAST_TARGET_NOT_ALLOWED') throw err;
      const detail = (err.options.details?.[0] ?? {}) as Record<string, unknown>;
      throw refused(
        call,
        `call ${index + 1} of ${calls.length} is refused: ${String(detail.reason ?? err.message)}`,
        Object.assign({}, detail, {
          safeCall: index,
          to: call.to,
          innerTo: inner.to,
          selector: 'execTransaction',
        }),
      );
    }
  });
  const kind = kinds[kinds.length - 1];
  const misplaced = kinds.slice(0, -1).findIndex((k) => !APPROVALS.includes(k));
  if (misplaced >= 0)
    throw refused(
      call,
      `call ${misplaced + 1} of ${calls.length} is a ${kinds[misplaced]}; a batch is approvals, then one ${kind}`,
      { safeCall: misplaced },
    );
  return { safe, operation: exec.operation, calls, kinds, kind };
}

/**
 * The call a Safe's build keys its compliance receipt by (call-key.ts): the trade or position
 * change, the batch's last call, sent by the Safe. Pure.
 */
export function builtCallOf(exec: SafeExec): {
  from: string;
  to: string;
  data: string;
  value: bigint;
} {
  const { to, data, value } = exec.calls[exec.calls.length - 1];
  return { from: exec.safe, to, data, value };
}

/** The kind of a transaction that is a Safe transaction of our shapes, else null (status lookups). */
export function safeExecKindOf(network: NetworkDefinition, call: TargetCall): SafeExec | null {
  try {
    return safeExecOf(network, call);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'BROADCAST_TARGET_NOT_ALLOWED') return null;
    throw err;
  }
}
