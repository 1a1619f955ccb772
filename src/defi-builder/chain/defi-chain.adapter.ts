/**
 * The DeFi builder's chain port mapped onto the chain layer: the network definition, the batched
 * reader and eth_estimateGas, all with the chain layer's time budget, retries and
 * CHAIN_UNAVAILABLE mapping; failed calls of the batch come back with their revert decoded by the chain layer.
 */
import { Injectable } from '@nestjs/common';
import { ChainReaderService } from '../../chain/chain-reader.service';
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
    const keys = Object.keys(reads) as Array<keyof R & string>;
    const { state, extra } = await this.reader.readWallet(
      wallet,
      keys.map((key) => reads[key].call),
    );
    const decoded = {} as Record<string, unknown>;
    keys.forEach((key, i) => (decoded[key] = reads[key].decode(extra[i])));
    return { state, reads: decoded as DecodedReads<R> };
  }

  estimateGas(tx: TxRequest): Promise<GasEstimate> {
    return this.rpc.estimateGas(tx);
  }
}
