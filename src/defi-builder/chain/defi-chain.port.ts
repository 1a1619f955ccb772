/**
 * What the DeFi builder needs from the chain, as a narrow port: the resolved network, THE
 * wallet-read batch with the operation's own reads riding in the same eth_call, and
 * eth_estimateGas. Reverts arrive decoded (the chain layer's revert decoder), so the builder
 * never parses revert data itself. The adapter maps it onto src/chain.
 */
import type { CallOutcome } from '../../chain/chain-reader.service';
import type {
  BlockTag,
  RawReceipt,
  RawSendResult,
  RawTransaction,
} from '../../chain/chain-rpc.service';
import type { Call3 } from '../../chain/encoding/multicall';
import type { DecodedRevert } from '../../chain/encoding/revert-decoder';
import type { WalletState } from '../../chain/encoding/wallet-reads';
import type { NetworkDefinition } from '../../chain/network/network.types';
import type { WalletSimulationRequest } from '../../chain/simulation/wallet-simulation';
import type { WalletSimulationOutcome } from '../../chain/simulation/wallet-simulator.service';

export const DEFI_CHAIN = Symbol('DEFI_CHAIN');

export interface TxRequest {
  from: string;
  to: string;
  data: string;
  value: bigint;
}

export type { BlockTag, CallOutcome, RawReceipt, RawSendResult, RawTransaction };
export type { WalletSimulationOutcome, WalletSimulationRequest };

/** A signed transaction replayed with eth_call: its own sender, target, data, value and gas limit. */
export interface SimulatedTx extends TxRequest {
  gas: bigint;
}

/**
 * A simulation: it passed, it reverted (decoded revert data), or the node answered the eth_call
 * with an error that is no revert (out of gas, intrinsic gas too low, gas above the block limit):
 * `refusal` holds the node's text, for classification only (never returned to a client).
 */
export type SimulationOutcome =
  | { ok: true; returnData?: string }
  | { ok: false; revert: DecodedRevert; refusal?: undefined }
  | { ok: false; revert?: undefined; refusal: string };

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
  /** `symbols`: the tokens whose balances and allowances are read (default: every token). */
  readWallet<R extends ChainReads>(
    wallet: string,
    reads: R,
    symbols?: readonly string[],
  ): Promise<{ state: WalletState; reads: DecodedReads<R> }>;
  /** Reads without a wallet (a quote): exactly one eth_call, with the block number it ran at. */
  read<R extends ChainReads>(reads: R): Promise<{ blockNumber: number; reads: DecodedReads<R> }>;
  /** eth_gasPrice (wei per gas); throws CHAIN_UNAVAILABLE on RPC failure. */
  gasPrice(): Promise<bigint>;
  /** Position NFTs ever transferred to `owner` (PositionManager Transfer logs, paged eth_getLogs). */
  positionTokenIdsReceivedBy(owner: string): Promise<bigint[]>;
  /** eth_estimateGas; a revert is a result (decoded), an RPC failure throws CHAIN_UNAVAILABLE. */
  estimateGas(tx: TxRequest): Promise<GasEstimate>;
  /**
   * A receipt's simulation (the calls run from the wallet at `blockNumber`: eth_call with a state
   * override) and, when `estimate` is given, its eth_estimateGas, in ONE JSON-RPC batch.
   */
  estimateAndSimulate(
    estimate: TxRequest | null,
    simulation: WalletSimulationRequest,
    blockNumber: number,
  ): Promise<{ estimate: GasEstimate | null; simulation: WalletSimulationOutcome }>;
  /**
   * eth_call of `tx` at `block`; a revert is a result (decoded), an RPC failure throws
   * CHAIN_UNAVAILABLE. `codeOverride`: other code at some addresses for this call only.
   */
  simulate(
    tx: SimulatedTx | TxRequest,
    block: BlockTag,
    codeOverride?: Record<string, string>,
  ): Promise<SimulationOutcome>;
  /** Runtime code at latest ('0x' for an EOA). */
  code(address: string): Promise<string>;
  /** One storage slot at latest (32-byte hex). */
  storageAt(address: string, slot: string): Promise<string>;
  /** eth_sendRawTransaction; the node's refusal is a result (its message), an outage throws. */
  sendRawTransaction(raw: string): Promise<RawSendResult>;
  transactionByHash(hash: string): Promise<RawTransaction | null>;
  transactionReceipt(hash: string): Promise<RawReceipt | null>;
  /** The next nonce the node accepts from `address` (eth_getTransactionCount at pending). */
  nextNonce(address: string): Promise<number>;
  /** The latest block's gas limit: no transaction with a higher one is ever mined. */
  blockGasLimit(): Promise<bigint>;
  /** The nonce after the wallet's mined transactions (eth_getTransactionCount at latest). */
  confirmedNonce(address: string): Promise<number>;
  blockNumber(): Promise<number>;
  /** ETH balance at latest (wei). */
  balance(address: string): Promise<bigint>;
}
