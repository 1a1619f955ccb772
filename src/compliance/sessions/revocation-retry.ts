import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { withAdvisoryLock } from '../../common/database/advisory-lock';
import { PeriodicScan } from '../../common/scheduling/periodic-scan';
import { ComplianceConfig } from '../../config/compliance.config';
import { ShutdownReport } from '../../lifecycle/shutdown-report';
import { Metrics } from '../../metrics/metrics.service';
import { AttesterService, OwedRevocationsPass } from './attester.service';

/**
 * Sends the owed session revocations again every REVOCATION_RETRY_MS until each is mined (one
 * instance at a time: a PostgreSQL advisory lock), and exports what is owed at each scrape:
 * cgk_compliance_revocations_pending and cgk_compliance_revocations_oldest_age_seconds (0 when
 * nothing is owed). The warn line of each failed send says what is owed and why it waits.
 */
@Injectable()
export class RevocationRetry extends PeriodicScan<OwedRevocationsPass> {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly attester: AttesterService,
    metrics: Metrics,
    config: ComplianceConfig,
    @Optional() private readonly report?: ShutdownReport,
  ) {
    super(config.revocationRetryMs);
    metrics.revocationsPending.set(0);
    metrics.revocationsOldestAge.set(0);
    metrics.onScrape('compliance-revocations', async () => {
      const owed = await this.attester.owedStats();
      metrics.revocationsPending.set(owed.pending);
      metrics.revocationsOldestAge.set(
        owed.oldestRequestedAt
          ? Math.max(0, (Date.now() - owed.oldestRequestedAt.getTime()) / 1000)
          : 0,
      );
    });
  }

  /** After the pass in flight: what is still owed, for the shutdown line (the next instance sends it). */
  override async beforeApplicationShutdown(): Promise<void> {
    await super.beforeApplicationShutdown();
    const owed = await this.attester.owedStats().catch(() => undefined);
    if (owed)
      this.report?.note(
        'revocationsOwed',
        owed.pending,
        `${owed.pending} session revocation(s) still owed${owed.pending > 0 ? ' (any instance sends them once it runs)' : ''}`,
      );
  }

  protected override failedPass(): OwedRevocationsPass {
    return { mined: 0, waiting: 0 };
  }

  protected scan(): Promise<OwedRevocationsPass> {
    return withAdvisoryLock(
      this.dataSource,
      'compliance-revocations',
      () => this.attester.retryOwed(),
      { mined: 0, waiting: 0 },
    );
  }
}
