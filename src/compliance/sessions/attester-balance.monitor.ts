import { Injectable } from '@nestjs/common';
import { PeriodicScan } from '../../common/scheduling/periodic-scan';
import { withTimeout } from '../../common/scheduling/with-timeout';
import { ComplianceConfig } from '../../config/compliance.config';
import { Metrics } from '../../metrics/metrics.service';
import { AttesterService } from './attester.service';

/** The start's check may hold the boot this long at most (a slow RPC must not stop a start). */
const START_CHECK_TIMEOUT_MS = 3_000;

/**
 * Reads the attester's balance at the start (so a start with an unfunded attester logs
 * `attester.balance.low` before it says ready) and every ATTESTER_BALANCE_CHECK_MS after, and
 * exports it: cgk_attester_balance_wei, cgk_attester_low_balance, cgk_attester_pending_transactions,
 * cgk_attester_can_pay (per role: primary, standby).
 * The warning itself is the BalanceWatch's, once per crossing of ATTESTER_LOW_BALANCE_ETH.
 */
@Injectable()
export class AttesterBalanceMonitor extends PeriodicScan<boolean> {
  constructor(
    private readonly attester: AttesterService,
    private readonly metrics: Metrics,
    private readonly config: ComplianceConfig,
  ) {
    super(config.attesterBalanceCheckMs);
    metrics.attesterLowBalanceThresholdWei.set(Number(config.attesterLowBalanceWei));
  }

  override async onApplicationBootstrap(): Promise<void> {
    await withTimeout(this.runOnce(), START_CHECK_TIMEOUT_MS).catch(() => undefined);
    super.onApplicationBootstrap();
  }

  /** One reading; resolves to whether the balance is low. */
  protected async scan(): Promise<boolean> {
    const status = await this.attester.status();
    this.metrics.attesterBalanceWei.set(Number(status.balanceWei));
    this.metrics.attesterLowBalance.set(status.lowBalance ? 1 : 0);
    this.metrics.attesterPending.set(status.pendingOnNode);
    this.metrics.attesterCanPay.set({ role: 'primary' }, status.canPay ? 1 : 0);
    if (status.standby)
      this.metrics.attesterCanPay.set({ role: 'standby' }, status.standby.canPay ? 1 : 0);
    return status.lowBalance;
  }

  protected override failedPass(): boolean {
    return false;
  }
}
