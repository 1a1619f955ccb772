/**
 * The DeFi builder's chain port mapped onto the chain layer: one shared provider, the network
 * definition, the Multicall3 reader and eth_estimateGas, all with the chain layer's time budget,
 * retries and CHAIN_UNAVAILABLE mapping.
 */
import { Injectable } from '@nestjs/common';
import { ChainReaderService } from '../../chain/chain-reader.service';
import { ChainRpcService } from '../../chain/chain-rpc.service';
import { NetworkService } from '../../chain/network/network.service';
import type { NetworkDefinition } from '../../chain/network/network.types';
import type { Call3, Call3Result } from '../encoding/preflight-batch';
import { DefiChain, GasEstimate, TxRequest } from './defi-chain.port';

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

  aggregate3(calls: Call3[]): Promise<Call3Result[]> {
    return this.reader.aggregate3(calls);
  }

  async estimateGas(tx: TxRequest): Promise<GasEstimate> {
    const estimate = await this.rpc.estimateGas(tx);
    if (estimate.ok) return estimate;
    return { ok: false, revertData: estimate.revertData === '0x' ? null : estimate.revertData };
  }
}
