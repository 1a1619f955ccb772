import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { foldStats, UsageBreakdown } from './rollups/fold-stats';
import { coveringBuckets, MINUTE_MS } from './rollups/rollup-buckets';
import { UsageRollupsService } from './rollups/usage-rollups.service';
import {
  foldSeries,
  Granularity,
  MAX_SERIES_BUCKETS,
  SeriesPoint,
  seriesBounds,
  seriesRanges,
} from './rollups/usage-series';
import { UsageRecorder } from './usage-recorder.service';

const DEFAULT_RANGE_MS = 30 * 24 * 60 * 60 * 1000;

export interface UsageFilter {
  accountId: string;
  from?: Date;
  to?: Date;
  keyId?: string;
  /** Adds `series`: one point per UTC hour or day of the range. */
  granularity?: Granularity;
}

export type UsageStats = { from: string; to: string } & UsageBreakdown & {
    granularity?: Granularity;
    series?: SeriesPoint[];
  };

/**
 * Reads only the roll-ups (issue 15): the covering hour and minute buckets of the range, grouped
 * in one indexed query, folded in memory. The cost follows the range's length, not the traffic.
 * Minute resolution: `from` is rounded down and `to` up to a whole minute, and the response
 * states the range counted. With a granularity, a second query of the same kind gives the
 * chart's series (per UTC hour or day), so a chart costs one request, not one per bar.
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
    if (filter.granularity) assertSeriesSize(fromMinute, toMinute, filter.granularity);
    // This instance's queued rows first, so a caller sees its own latest requests.
    await this.recorder.flush();
    const groups = await this.rollups.groups(
      filter.accountId,
      coveringBuckets(fromMinute, toMinute),
      filter.keyId,
    );
    const stats: UsageStats = {
      from: new Date(fromMinute * MINUTE_MS).toISOString(),
      to: new Date(toMinute * MINUTE_MS).toISOString(),
      ...foldStats(groups),
    };
    if (!filter.granularity) return stats;
    const rows = await this.rollups.perBucket(
      filter.accountId,
      seriesRanges(fromMinute, toMinute, filter.granularity),
      filter.keyId,
    );
    return Object.assign(stats, {
      granularity: filter.granularity,
      series: foldSeries(fromMinute, toMinute, filter.granularity, rows),
    });
  }
}

function assertSeriesSize(fromMinute: number, toMinute: number, granularity: Granularity): void {
  const { first, last } = seriesBounds(fromMinute, toMinute, granularity);
  if (last - first <= MAX_SERIES_BUCKETS) return;
  throw new ApiError(
    'INVALID_PARAMS',
    `A ${granularity} series of this range has ${last - first} points (at most ${MAX_SERIES_BUCKETS})`,
    {
      hint: 'Shorten the range (from/to) or ask for granularity=day.',
      details: [{ field: 'granularity', constraint: 'maxSeriesPoints', max: MAX_SERIES_BUCKETS }],
    },
  );
}
