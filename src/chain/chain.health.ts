import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { ReadinessRegistry } from '../health/readiness.registry';
import { ChainConnection } from './chain-connection';
import { ChainRpcService } from './chain-rpc.service';
import { ChainInstanceService } from './instance/chain-instance.service';
import { NetworkService } from './network/network.service';

/**
 * The chain in readiness: eth_chainId answers within CHAIN_HEALTH_TIMEOUT_MS (from any configured
 * RPC URL: failover) and matches. The details name the RPC URL in use and each URL's error rate
 * over the last minute, as scheme://host[:port] only (providers put keys in paths and queries).
 * A slow, unreachable or wrong chain is `degraded`, never `down`: the node is shared by every
 * instance, so failing readiness for it would take all of them out of the load balancer together,
 * reads that never touch the chain included (issue 34). Requests that need the chain answer 503
 * CHAIN_UNAVAILABLE meanwhile.
 */
@Injectable()
export class ChainHealthIndicator {
  constructor(
    private readonly rpc: ChainRpcService,
    private readonly connection: ChainConnection,
    private readonly network: NetworkService,
    private readonly indicators: HealthIndicatorService,
    private readonly instances: ChainInstanceService,
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
        return degraded(key, {
          message: `RPC serves chainId ${chainId}, expected ${this.network.chainId}: check the RPC URLs`,
          rpc: this.connection.rpcStatus(),
        });
      }
      return indicator.up({
        chainId,
        network: this.network.definition.name,
        latencyMs: Date.now() - started,
        rpc: this.connection.rpcStatus(),
        instance: this.instances.status,
      });
    } catch {
      // Never RPC text in a response: the log of ChainRpcService has the cause.
      return degraded(key, {
        message:
          'chain RPC unreachable or too slow; requests that need the chain answer 503 CHAIN_UNAVAILABLE',
        latencyMs: Date.now() - started,
        rpc: this.connection.rpcStatus(),
      });
    }
  }
}

/** Terminus' indicator offers up/down only; `degraded` keeps the check's result (status 200). */
function degraded(key: string, details: Record<string, unknown>): HealthIndicatorResult {
  return { [key]: { status: 'degraded', ...details } };
}
