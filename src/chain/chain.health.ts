import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { ReadinessRegistry } from '../health/readiness.registry';
import { ChainRpcService } from './chain-rpc.service';
import { NetworkService } from './network/network.service';

/** Readiness of the chain: eth_chainId answers within CHAIN_HEALTH_TIMEOUT_MS and matches. */
@Injectable()
export class ChainHealthIndicator {
  constructor(
    private readonly rpc: ChainRpcService,
    private readonly network: NetworkService,
    private readonly indicators: HealthIndicatorService,
    readiness: ReadinessRegistry,
  ) {
    readiness.register(() => this.check('chain'));
  }

  async check(key: string) {
    const indicator = this.indicators.check(key);
    const started = Date.now();
    try {
      const chainId = await this.rpc.chainId();
      if (chainId !== this.network.chainId) {
        return indicator.down({
          message: `RPC serves chainId ${chainId}, expected ${this.network.chainId}`,
        });
      }
      return indicator.up({
        chainId,
        network: this.network.definition.name,
        latencyMs: Date.now() - started,
      });
    } catch {
      // Never RPC text in a response: the log of ChainRpcService has the cause.
      return indicator.down({ message: 'chain RPC unreachable or too slow' });
    }
  }
}
