import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { ReadinessRegistry } from '../health/readiness.registry';
import { ChainConnection } from './chain-connection';
import { ChainRpcService } from './chain-rpc.service';
import { NetworkService } from './network/network.service';

/**
 * Readiness of the chain: eth_chainId answers within CHAIN_HEALTH_TIMEOUT_MS (from any configured
 * RPC URL: failover) and matches. The details name the RPC URL in use and each URL's error rate
 * over the last minute, as scheme://host[:port] only (providers put keys in paths and queries).
 */
@Injectable()
export class ChainHealthIndicator {
  constructor(
    private readonly rpc: ChainRpcService,
    private readonly connection: ChainConnection,
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
          rpc: this.connection.rpcStatus(),
        });
      }
      return indicator.up({
        chainId,
        network: this.network.definition.name,
        latencyMs: Date.now() - started,
        rpc: this.connection.rpcStatus(),
      });
    } catch {
      // Never RPC text in a response: the log of ChainRpcService has the cause.
      return indicator.down({
        message: 'chain RPC unreachable or too slow',
        rpc: this.connection.rpcStatus(),
      });
    }
  }
}
