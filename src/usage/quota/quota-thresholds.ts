import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from '../../common/database/unique-violation';
import { SYSTEM_ACTOR } from '../../events/activity-event';
import { ActivityLog } from '../../events/activity-log';
import type { CalendarMonth } from './calendar-month';
import { QuotaThresholdMark } from './quota-threshold-mark.entity';

/** The shares of the monthly quota that raise quota.threshold, once per month each. */
export const QUOTA_THRESHOLD_PERCENTS = [80, 100] as const;

/**
 * quota.threshold at 80 % and 100 % of the monthly quota. The per-request cost is a comparison:
 * this process remembers which (account, month, percent) it has handled, so the database is
 * touched once per threshold per process; the marks table's primary key makes the event once
 * per month across processes and restarts (a second insert fails and records nothing).
 */
@Injectable()
export class QuotaThresholds {
  private readonly logger = new Logger(QuotaThresholds.name);
  private readonly handled = new Set<string>();
  private handledMonth = '';

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly activity: ActivityLog,
  ) {}

  /** Called with the month's count after each counted request; never waits on the database. */
  observe(accountId: string, used: number, limit: number | null, month: CalendarMonth): void {
    if (limit === null || limit <= 0) return;
    if (this.handledMonth !== month.key) {
      this.handled.clear();
      this.handledMonth = month.key;
    }
    for (const percent of QUOTA_THRESHOLD_PERCENTS) {
      if (used < Math.ceil((limit * percent) / 100)) break;
      const key = `${accountId}:${percent}`;
      if (this.handled.has(key)) continue;
      this.handled.add(key);
      void this.record(accountId, percent, used, limit, month).catch((err: unknown) => {
        this.handled.delete(key); // tried again on the next request
        this.logger.warn({ err: (err as Error).message }, 'Could not record quota.threshold');
      });
    }
  }

  private async record(
    accountId: string,
    percent: number,
    used: number,
    limit: number,
    month: CalendarMonth,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      try {
        await manager
          .getRepository(QuotaThresholdMark)
          .insert({ accountId, month: month.key, percent });
      } catch (error) {
        if (isUniqueViolation(error)) return;
        throw error;
      }
      await this.activity.record(
        {
          accountId,
          type: 'quota.threshold',
          actor: SYSTEM_ACTOR,
          target: { type: 'account', id: accountId },
          data: {
            percent,
            used,
            limit,
            month: month.key,
            resetsAt: month.resetsAtIso,
          },
        },
        manager,
      );
    });
  }
}
