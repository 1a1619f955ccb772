/**
 * `callsFormat=eip5792` (design §10): a build's `calls` as the parameter object of EIP-5792
 * `wallet_sendCalls` (https://eips.ethereum.org/EIPS/eip-5792, version 2.0.0), to pass as is to
 * a wallet or custody platform that batches natively: chainId and values as hex quantities,
 * addresses checksummed, nothing else (wallets validate the object strictly: MetaMask refuses an
 * unknown member). Pure.
 *
 * atomicRequired: more than one call means approvals and the trade they exist for, which must land
 * together (approvals left standing without their trade are allowances nobody asked for); a
 * wallet that cannot batch atomically refuses, and the caller sends the default `calls` one by
 * one instead. A single call needs no atomicity.
 */
import type { Call } from '../defi-builder.types';

export const EIP5792_VERSION = '2.0.0';
export type CallsFormat = 'eip5792';
export const CALLS_FORMATS: readonly CallsFormat[] = ['eip5792'];

export interface WalletSendCallsView {
  version: typeof EIP5792_VERSION;
  /** EIP-155 chain id, hex, no leading zeros (84532: 0x14a34). */
  chainId: string;
  from: string;
  atomicRequired: boolean;
  calls: Array<{ to: string; data: string; value: string }>;
}

const hexQuantity = (value: bigint | number): string => `0x${value.toString(16)}`;

export function walletSendCallsOf(
  chainId: number,
  from: string,
  calls: readonly Call[],
): WalletSendCallsView {
  return {
    version: EIP5792_VERSION,
    chainId: hexQuantity(chainId),
    from,
    atomicRequired: calls.length > 1,
    calls: calls.map((call) => ({
      to: call.to,
      data: call.data,
      value: hexQuantity(BigInt(call.value)),
    })),
  };
}
