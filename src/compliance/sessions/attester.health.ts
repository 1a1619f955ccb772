import { Injectable } from '@nestjs/common';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import { formatEther } from 'ethers';
import { ComplianceConfig } from '../../config/compliance.config';
import { ReadinessRegistry } from '../../health/readiness.registry';
import { withTimeout } from '../../common/scheduling/with-timeout';
import { AttesterService } from './attester.service';

/** A readiness probe must answer fast even when the RPC hangs (the `chain` check reports that). */
const STATUS_TIMEOUT_MS = 1_500;

/**
 * The attester in /health/ready: address, balance, unmined transactions. Always `up`: a low
 * balance is a warning (`lowBalance: true`, logged once per crossing), not unreadiness, since
 * taking every instance out of the load balancer (they share the key) would stop the builds and
 * reads too, while only activations are at risk; an unreachable RPC is the `chain` check's.
 */
@Injectable()
export class AttesterHealthIndicator {
  constructor(
    private readonly attester: AttesterService,
    private readonly config: ComplianceConfig,
    readiness: ReadinessRegistry,
  ) {
    readiness.register(() => this.check('attester'));
  }

  async check(key: string): Promise<HealthIndicatorResult> {
    const address = this.attester.address;
    const thresholdEth = formatEther(this.config.attesterLowBalanceWei);
    try {
      const status = await withTimeout(this.attester.status(), STATUS_TIMEOUT_MS);
      return {
        [key]: {
          status: 'up',
          address,
          balanceEth: formatEther(status.balanceWei),
          lowBalance: status.lowBalance,
          lowBalanceThresholdEth: thresholdEth,
          pendingOnNode: status.pendingOnNode,
          pendingTransactions: status.pending.map((p) => ({
            nonce: p.nonce,
            hashes: p.hashes,
            maxFeePerGas: p.fees.maxFeePerGas.toString(),
            maxPriorityFeePerGas: p.fees.maxPriorityFeePerGas.toString(),
            pendingForMs: Date.now() - p.firstSentAt,
          })),
          ...status.stats,
        },
      };
    } catch {
      return {
        [key]: {
          status: 'up',
          address,
          message: 'balance unreadable: the chain RPC did not answer',
        },
      };
    }
  }
}
