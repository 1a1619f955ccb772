/**
 * What the DeFi builder needs from the chain, as a narrow port: the resolved network, ONE
 * Multicall3 aggregate3 eth_call, and eth_estimateGas with the revert data kept. The adapter
 * maps it onto the chain layer (src/chain); the services never touch a provider directly.
 */
import type { NetworkDefinition } from '../../chain/network/network.types';
import type { Call3, Call3Result } from '../encoding/preflight-batch';

export const DEFI_CHAIN = Symbol('DEFI_CHAIN');

export interface TxRequest {
  from: string;
  to: string;
  data: string;
  value: bigint;
}

export type GasEstimate = { ok: true; gas: bigint } | { ok: false; revertData: string | null };

export interface DefiChain {
  network(): NetworkDefinition;
  /** Exactly one eth_call to Multicall3.aggregate3; throws ApiError CHAIN_UNAVAILABLE on RPC failure. */
  aggregate3(calls: Call3[]): Promise<Call3Result[]>;
  /** eth_estimateGas; a revert is a result (with its data), an RPC failure throws CHAIN_UNAVAILABLE. */
  estimateGas(tx: TxRequest): Promise<GasEstimate>;
}
