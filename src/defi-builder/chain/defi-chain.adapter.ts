/**
 * The DeFi builder's chain port mapped onto the chain layer: the network definition, the batched
 * reader and eth_estimateGas, all with the chain layer's time budget, retries and
 * CHAIN_UNAVAILABLE mapping; failed calls of the batch come back with their revert decoded by the chain layer.
 */
import { Injectable } from '@nestjs/common';
import { ChainReaderService, decodeChainAnswer } from '../../chain/chain-reader.service';
import { tokenIdsOf, transfersToFilter } from '../../chain/encoding/position-logs';
import { ChainRevertError, ChainRpcService } from '../../chain/chain-rpc.service';
import { JsonRpcError } from '../../chain/json-rpc-http';
import { isProviderFailure } from '../../chain/rpc-failover';
import { ApiError } from '../../common/errors/api-error';
import { NetworkService } from '../../chain/network/network.service';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { WalletSimulatorService } from '../../chain/simulation/wallet-simulator.service';
import {
  CallOutcome,
  ChainReads,
  DecodedReads,
  DefiChain,
  BlockTag,
  GasEstimate,
  RawReceipt,
  RawSendResult,
  RawTransaction,
  SimulatedTx,
  SimulationOutcome,
  TxRequest,
  WalletSimulationOutcome,
  WalletSimulationRequest,
} from './defi-chain.port';

@Injectable()
export class ChainLayerDefiChain implements DefiChain {
  constructor(
    private readonly network_: NetworkService,
    private readonly reader: ChainReaderService,
    private readonly rpc: ChainRpcService,
    private readonly simulator: WalletSimulatorService,
  ) {}

  network(): NetworkDefinition {
    return this.network_.definition;
  }

  async readWallet<R extends ChainReads>(wallet: string, reads: R, symbols?: readonly string[]) {
    const { state, extra } = await this.reader.readWallet(wallet, callsOf(reads), symbols);
    return { state, reads: decodeAll(reads, extra) };
  }

  async read<R extends ChainReads>(reads: R) {
    const { blockNumber, outcomes } = await this.reader.read(callsOf(reads));
    return { blockNumber, reads: decodeAll(reads, outcomes) };
  }

  gasPrice(): Promise<bigint> {
    return this.rpc.gasPrice();
  }

  async positionTokenIdsReceivedBy(owner: string): Promise<bigint[]> {
    const network = this.network();
    const { startBlock, pageBlocks } = network.positionLogs;
    const logs = await this.reader.findLogs(
      transfersToFilter(network, owner),
      startBlock,
      pageBlocks,
    );
    return tokenIdsOf(logs);
  }

  estimateGas(tx: TxRequest): Promise<GasEstimate> {
    return this.rpc.estimateGas(tx);
  }

  estimateAndSimulate(
    estimate: TxRequest | null,
    simulation: WalletSimulationRequest,
    blockNumber: number,
  ): Promise<{ estimate: GasEstimate | null; simulation: WalletSimulationOutcome }> {
    return this.simulator.estimateAndSimulate(estimate, simulation, blockNumber);
  }

  async simulate(
    tx: SimulatedTx | TxRequest,
    block: BlockTag,
    codeOverride?: Record<string, string>,
  ): Promise<SimulationOutcome> {
    try {
      const returnData = await this.rpc.call(tx, block, codeOverride);
      return { ok: true, returnData };
    } catch (err) {
      if (err instanceof ChainRevertError) return { ok: false, revert: err.revert };
      // The node answered, with an error that is no revert (out of gas, intrinsic gas, block
      // gas limit): the transaction's fault, not an outage. Only a transport failure stays 503.
      const cause = err instanceof ApiError ? err.cause : undefined;
      if (cause instanceof JsonRpcError && !isProviderFailure(cause))
        return { ok: false, refusal: cause.message };
      throw err;
    }
  }

  code(address: string): Promise<string> {
    return this.rpc.code(address);
  }

  storageAt(address: string, slot: string): Promise<string> {
    return this.rpc.storageAt(address, slot);
  }

  sendRawTransaction(raw: string): Promise<RawSendResult> {
    return this.rpc.sendRawTransaction(raw);
  }

  transactionByHash(hash: string): Promise<RawTransaction | null> {
    return this.rpc.transactionByHash(hash);
  }

  transactionReceipt(hash: string): Promise<RawReceipt | null> {
    return this.rpc.transactionReceipt(hash);
  }

  nextNonce(address: string): Promise<number> {
    return this.rpc.transactionCount(address, 'pending');
  }

  async blockGasLimit(): Promise<bigint> {
    const block = await this.rpc.withBudget('eth_getBlockByNumber', () =>
      this.rpc.provider.send('eth_getBlockByNumber', ['latest', false]),
    );
    return BigInt((block as { gasLimit: string }).gasLimit);
  }

  confirmedNonce(address: string): Promise<number> {
    return this.rpc.transactionCount(address, 'latest');
  }

  blockNumber(): Promise<number> {
    return this.rpc.blockNumber();
  }

  balance(address: string): Promise<bigint> {
    return this.rpc.balance(address);
  }
}

function callsOf(reads: ChainReads) {
  return Object.values(reads).map((read) => read.call);
}

/**
 * Object key order is the call order (callsOf and this walk the same keys). A read answered with
 * no data (no contract at its target) is 503 CHAIN_UNAVAILABLE naming the target, not a 500.
 */
function decodeAll<R extends ChainReads>(reads: R, outcomes: CallOutcome[]): DecodedReads<R> {
  const decoded = {} as Record<string, unknown>;
  for (const [i, key] of Object.keys(reads).entries()) {
    const read = reads[key];
    decoded[key] = decodeChainAnswer(
      () => read.decode(outcomes[i]),
      () => read.call.target,
    );
  }
  return decoded as DecodedReads<R>;
}
