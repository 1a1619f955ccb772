/**
 * The DeFi builder's chain port mapped onto the chain layer: the network definition, the batched
 * reader and eth_estimateGas, all with the chain layer's time budget, retries and
 * CHAIN_UNAVAILABLE mapping; failed calls of the batch come back with their revert decoded by the chain layer.
 */
import { Injectable } from '@nestjs/common';
import { CallOutcome, ChainReaderService, outcomeOf } from '../../chain/chain-reader.service';
import { tokenIdsOf, transfersToFilter } from '../../chain/encoding/position-logs';
import { ChainRpcService } from '../../chain/chain-rpc.service';
import { NetworkService } from '../../chain/network/network.service';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ChainReads, DecodedReads, DefiChain, GasEstimate, TxRequest } from './defi-chain.port';

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
    const keys = Object.keys(reads);
    const { state, extra } = await this.reader.readWallet(
      wallet,
      keys.map((key) => reads[key].call),
    );
    return { state, reads: decodeReads(reads, extra) };
  }

  async read<R extends ChainReads>(reads: R): Promise<DecodedReads<R>> {
    const results = await this.reader.aggregate3(Object.values(reads).map((read) => read.call));
    return decodeReads(reads, results.map(outcomeOf));
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

/** Each read decodes its own outcome, in the order the calls were sent. */
function decodeReads<R extends ChainReads>(reads: R, outcomes: CallOutcome[]): DecodedReads<R> {
  const decoded = {} as Record<string, unknown>;
  Object.keys(reads).forEach((key, i) => (decoded[key] = reads[key].decode(outcomes[i])));
  return decoded as DecodedReads<R>;
}
