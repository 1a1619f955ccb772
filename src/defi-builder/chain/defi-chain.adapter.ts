/**
 * The DeFi builder's chain port mapped onto the chain layer: the network definition, the batched
 * reader and eth_estimateGas, all with the chain layer's time budget, retries and
 * CHAIN_UNAVAILABLE mapping; failed calls of the batch come back with their revert decoded by the chain layer.
 */
import { Injectable } from '@nestjs/common';
import { ChainReaderService, decodeChainAnswer } from '../../chain/chain-reader.service';
import { tokenIdsOf, transfersToFilter } from '../../chain/encoding/position-logs';
import { ChainRpcService } from '../../chain/chain-rpc.service';
import { NetworkService } from '../../chain/network/network.service';
import type { NetworkDefinition } from '../../chain/network/network.types';
import {
  CallOutcome,
  ChainReads,
  DecodedReads,
  DefiChain,
  GasEstimate,
  TxRequest,
} from './defi-chain.port';

@Injectable()
export class ChainLayerDefiChain implements DefiChain {
  constructor(
    private readonly network_: NetworkService,
    private readonly reader: ChainReaderService,
    private readonly rpc: ChainRpcService,
  ) {}

  network(): NetworkDefinition {
    return this.network_.definition;
  }

  async readWallet<R extends ChainReads>(wallet: string, reads: R) {
    const { state, extra } = await this.reader.readWallet(wallet, callsOf(reads));
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
