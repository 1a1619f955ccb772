import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, LessThanOrEqual } from 'typeorm';
import { ItemBackoff } from '../common/scheduling/item-backoff';
import { PeriodicScan } from '../common/scheduling/periodic-scan';
import { ApprovalsConfig } from '../config/approvals.config';
import { ApprovalGate } from './approval-gate.service';
import { ApprovalRequest } from './approval-request.entity';

const BATCH = 100;

/**
 * Every APPROVALS_SWEEP_INTERVAL_MS, each instance ends the pending and approved requests past
 * their expiry: `expired`, with `approval.expired`, by a conditional UPDATE in the transaction of
 * the event, so of several replicas sweeping at once (or a build naming the request) exactly one
 * records it. No lock is needed: the losers' UPDATEs change nothing and record nothing.
 */
@Injectable()
export class ApprovalExpirySweep extends PeriodicScan {
  private readonly backoff = new ItemBackoff(60_000, 3_600_000);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly gate: ApprovalGate,
    config: ApprovalsConfig,
  ) {
    super(config.sweepIntervalMs);
  }

  protected async scan(): Promise<number> {
    const now = Date.now();
    const due = await this.dataSource.getRepository(ApprovalRequest).find({
      where: { status: In(['pending', 'approved']), expiresMs: LessThanOrEqual(now) },
      order: { expiresMs: 'ASC' },
      take: BATCH + Math.min(this.backoff.waiting().length, 1_000),
    });
    return this.eachReady(
      due,
      {
        backoff: this.backoff,
        limit: BATCH,
        keyOf: (request) => request.id,
        describe: (request) => ({ approvalId: request.id, accountId: request.accountId }),
        failure: 'approval request not expired; retrying later',
      },
      async (request) => (await this.gate.end(request, 'expired', now)).status === 'expired',
    );
  }
}
