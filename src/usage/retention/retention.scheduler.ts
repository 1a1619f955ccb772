import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditEventsService } from '../../audit/audit-events.service';
import { AuthSessionsService } from '../../auth/tokens/auth-sessions.service';
import { SiweNoncesService } from '../../compliance/onboarding/siwe-nonces.service';
import { withAdvisoryLock } from '../../common/database/advisory-lock';
import { PeriodicScan } from '../../common/scheduling/periodic-scan';
import { UsageConfig } from '../../config/usage.config';
import { UsageRetentionService } from './usage-retention.service';

export type RetentionOutcome =
  { ran: true; deleted: Record<string, number> } | { ran: false; reason: 'locked' | 'busy' };

/**
 * The retention sweep: every RETENTION_INTERVAL_MS (timer unref'd), each module prunes its own
 * tables through its own service, in bounded batches. Several instances: on PostgreSQL the sweep
 * runs under a session advisory lock (pg_try_advisory_lock, per schema), so one instance sweeps
 * and the others skip that round; SQLite is one process by construction.
 */
@Injectable()
export class RetentionScheduler extends PeriodicScan<RetentionOutcome> {
  private sweepAt?: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly usage: UsageRetentionService,
    private readonly authSessions: AuthSessionsService,
    private readonly siweNonces: SiweNoncesService,
    private readonly auditEvents: AuditEventsService,
    private readonly config: UsageConfig,
  ) {
    super(config.pruneIntervalMs);
  }

  /** One sweep now (the timer's job; tests call it). Overlapping calls in one process skip. */
  override runOnce(now = Date.now()): Promise<RetentionOutcome> {
    if (this.busy) return Promise.resolve({ ran: false, reason: 'busy' });
    this.sweepAt = now;
    return super.runOnce();
  }

  protected scan(): Promise<RetentionOutcome> {
    return this.sweepLocked(this.sweepAt ?? Date.now());
  }

  /** A failed sweep (logged): the next round retries. */
  protected override failedPass(): RetentionOutcome {
    return { ran: false, reason: 'busy' };
  }

  private async sweepLocked(now: number): Promise<RetentionOutcome> {
    return withAdvisoryLock(
      this.dataSource,
      'retention-sweep',
      async () => ({ ran: true as const, deleted: await this.sweep(now) }),
      { ran: false as const, reason: 'locked' as const },
    );
  }

  private async sweep(now: number): Promise<Record<string, number>> {
    const batch = this.config.pruneBatchSize;
    const deleted = Object.assign(
      {},
      await this.usage.pruneExpired(now, batch),
      await this.authSessions.pruneExpired(now, batch),
      await this.siweNonces.pruneExpired(now, batch),
      await this.auditEvents.pruneExpired(now, batch),
    );
    this.logger.log({ deleted }, 'Retention sweep done');
    return deleted;
  }
}
