import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { deleteInBatches } from '../../common/database/delete-in-batches';
import { UsageConfig } from '../../config/usage.config';
import { MINUTE_MS } from '../rollups/rollup-buckets';
import { UsageRollupsService } from '../rollups/usage-rollups.service';
import { UsageRecord } from '../usage-record.entity';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Usage's own pruning: raw rows after USAGE_RAW_RETENTION_DAYS, roll-ups after USAGE_ROLLUP_RETENTION_DAYS. */
@Injectable()
export class UsageRetentionService {
  constructor(
    @InjectRepository(UsageRecord) private readonly records: Repository<UsageRecord>,
    private readonly rollups: UsageRollupsService,
    private readonly config: UsageConfig,
  ) {}

  async pruneExpired(now: number, batchSize: number): Promise<Record<string, number>> {
    const createdAt = this.records.metadata.findColumnWithPropertyName('createdAt')!;
    const cutoff = new Date(now - this.config.rawRetentionDays * DAY_MS);
    const usageRecords = await deleteInBatches(
      this.records,
      't.createdAt < :cutoff',
      {
        cutoff: this.records.manager.connection.driver.preparePersistentValue(cutoff, createdAt),
      },
      batchSize,
    );
    const usageRollups = await this.rollups.prune(
      Math.floor((now - this.config.rollupRetentionDays * DAY_MS) / MINUTE_MS),
      batchSize,
    );
    return { usageRecords, usageRollups };
  }
}
