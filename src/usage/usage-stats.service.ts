import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { foldStats, UsageBreakdown } from './rollups/fold-stats';
import { coveringBuckets, MINUTE_MS } from './rollups/rollup-buckets';
import { UsageRollupsService } from './rollups/usage-rollups.service';
import { UsageRecorder } from './usage-recorder.service';

const DEFAULT_RANGE_MS = 30 * 24 * 60 * 60 * 1000;

export interface UsageFilter {
  accountId: string;
  from?: Date;
  to?: Date;
  keyId?: string;
}

export type UsageStats = { from: string; to: string } & UsageBreakdown;

/**
 * Reads only the roll-ups (issue 15): the covering hour and minute buckets of the range, grouped
 * in one indexed query, folded in memory. The cost follows the range's length, not the traffic.
 * Minute resolution: `from` is rounded down and `to` up to a whole minute, and the response
 * states the range counted.
 */
@Injectable()
export class UsageStatsService {
  constructor(
    private readonly rollups: UsageRollupsService,
    private readonly recorder: UsageRecorder,
  ) {}

  async statsFor(filter: UsageFilter): Promise<UsageStats> {
    const to = filter.to ?? new Date();
    const from = filter.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
    if (from.getTime() >= to.getTime()) {
      throw new ApiError('INVALID_PARAMS', '`from` must be before `to`', {
        details: [{ field: 'from', constraint: 'isBeforeTo', message: 'from must be before to' }],
      });
    }
    const fromMinute = Math.floor(from.getTime() / MINUTE_MS);
    const toMinute = Math.ceil(to.getTime() / MINUTE_MS);
    // This instance's queued rows first, so a caller sees its own latest requests.
    await this.recorder.flush();
    const groups = await this.rollups.groups(
      filter.accountId,
      coveringBuckets(fromMinute, toMinute),
      filter.keyId,
    );
    return {
      from: new Date(fromMinute * MINUTE_MS).toISOString(),
      to: new Date(toMinute * MINUTE_MS).toISOString(),
      ...foldStats(groups),
    };
  }
}
