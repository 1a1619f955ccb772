import { Injectable } from '@nestjs/common';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import { formatEther } from 'ethers';
import { ComplianceConfig } from '../../config/compliance.config';
import { ReadinessRegistry } from '../../health/readiness.registry';
import { withTimeout } from '../../common/scheduling/with-timeout';
import type { AttesterAccountStatus } from './attester-account';
import { AttesterService, AttesterStatus } from './attester.service';

/** A readiness probe must answer fast even when the RPC hangs (the `chain` check reports that). */
const STATUS_TIMEOUT_MS = 1_500;

/**
 * The attester in /health/ready: `up`, or `degraded` while the primary attester cannot pay for one
 * registry transaction (or the registry refuses it), with `reason` (said on the API port too,
 * without addresses) and the details: address, balance, lowBalance, canPay, unmined
 * transactions, the revocations owed, the standby. Degraded, never down: every instance shares
 * the key, so taking them out of the load balancer would stop the builds and reads too while only
 * activations and revocations are at risk; an unreachable RPC is the `chain` check's.
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
    let status: AttesterStatus;
    try {
      status = await withTimeout(this.attester.status(), STATUS_TIMEOUT_MS);
    } catch {
      return {
        [key]: {
          status: 'up',
          address,
          message: 'balance unreadable: the chain RPC did not answer',
        },
      };
    }
    const reason = degradedReason(status);
    const oldest = status.owed.oldestRequestedAt;
    return {
      [key]: {
        status: reason ? 'degraded' : 'up',
        ...(reason && { reason, message: reason }),
        ...this.account(status),
        lowBalanceThresholdEth: formatEther(this.config.attesterLowBalanceWei),
        owedRevocations: {
          pending: status.owed.pending,
          oldestAgeSeconds: oldest ? Math.round((Date.now() - oldest.getTime()) / 1000) : 0,
        },
        ...(status.standby && { standby: this.account(status.standby) }),
      },
    };
  }

  private account(status: AttesterAccountStatus) {
    return {
      address: status.address,
      signer: status.signer,
      balanceEth: formatEther(status.balanceWei),
      lowBalance: status.lowBalance,
      canPay: status.canPay,
      pendingOnNode: status.pendingOnNode,
      pendingTransactions: status.pending.map((p) => ({
        nonce: p.nonce,
        hashes: p.hashes,
        maxFeePerGas: p.fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: p.fees.maxPriorityFeePerGas.toString(),
        pendingForMs: Date.now() - p.firstSentAt,
      })),
      ...status.stats,
    };
  }
}

/** Why the attester side is degraded (no address, balance or host: said on the API port). */
export function degradedReason(status: AttesterStatus): string | undefined {
  const refused = status.trouble === 'refused';
  if (status.canPay && !refused) return undefined;
  const owed =
    status.owed.pending > 0
      ? `${status.owed.pending} owed session revocation(s) wait`
      : 'session revocations would wait';
  const what = refused
    ? 'the registry refuses the primary attester (is its key still a registry attester?)'
    : 'the primary attester cannot pay for gas';
  if (status.standby?.canPay) return `${what}: the standby attester signs meanwhile`;
  return `${what}: activations fail and ${owed} until it is ${refused ? 'allowed again' : 'funded'}`;
}
