/**
 * What the DeFi builder needs from the chain, as a narrow port: the resolved network, THE
 * wallet-read batch with the operation's own reads riding in the same eth_call, and
 * eth_estimateGas. Reverts arrive decoded (the chain layer's revert decoder), so the builder
 * never parses revert data itself. The adapter maps it onto src/chain.
 */
import type { CallOutcome } from '../../chain/chain-reader.service';
import type { Call3 } from '../../chain/encoding/multicall';
import type { DecodedRevert } from '../../chain/encoding/revert-decoder';
import type { WalletState } from '../../chain/encoding/wallet-reads';
import type { NetworkDefinition } from '../../chain/network/network.types';

export const DEFI_CHAIN = Symbol('DEFI_CHAIN');

export interface TxRequest {
  from: string;
  to: string;
  data: string;
  value: bigint;
}

export type { CallOutcome };

/** One read an operation adds to the batch, with its own decoding (pure: encoding/market-reads.ts). */
export interface ChainRead<T> {
  call: Call3;
  decode(outcome: CallOutcome): T;
}

export type ChainReads = Record<string, ChainRead<unknown>>;
export type DecodedReads<R extends ChainReads> = {
  [K in keyof R]: R[K] extends ChainRead<infer T> ? T : never;
};

export type GasEstimate = { ok: true; gas: bigint } | { ok: false; revert: DecodedRevert };

export interface DefiChain {
  network(): NetworkDefinition;
  /** Exactly one eth_call: the wallet state plus `reads`; throws ApiError CHAIN_UNAVAILABLE on RPC failure. */
  readWallet<R extends ChainReads>(
    wallet: string,
    reads: R,
  ): Promise<{ state: WalletState; reads: DecodedReads<R> }>;
  /** Reads without a wallet (a quote): exactly one eth_call, with the block number it ran at. */
  read<R extends ChainReads>(reads: R): Promise<{ blockNumber: number; reads: DecodedReads<R> }>;
  /** eth_gasPrice (wei per gas); throws CHAIN_UNAVAILABLE on RPC failure. */
  gasPrice(): Promise<bigint>;
  /** Position NFTs ever transferred to `owner` (PositionManager Transfer logs, paged eth_getLogs). */
  positionTokenIdsReceivedBy(owner: string): Promise<bigint[]>;
  /** eth_estimateGas; a revert is a result (decoded), an RPC failure throws CHAIN_UNAVAILABLE. */
  estimateGas(tx: TxRequest): Promise<GasEstimate>;
}
