import type { Counts } from './fold-stats';
import { BucketRange, coveringBuckets, MINUTE_MS } from './rollup-buckets';

export const GRANULARITIES = ['hour', 'day'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** Bucket length in minutes of each granularity (UTC hours and days). */
export const GRANULARITY_MINUTES: Readonly<Record<Granularity, number>> = { hour: 60, day: 1440 };

/** Beyond this many buckets a chart is unreadable and the answer large: ask for a coarser one. */
export const MAX_SERIES_BUCKETS = 1_000;

export type SeriesPoint = { start: string } & Counts;

/** The chart buckets [first, last) of a range, in bucket indexes (unix minutes / span). */
export function seriesBounds(fromMinute: number, toMinute: number, granularity: Granularity) {
  const span = GRANULARITY_MINUTES[granularity];
  return { span, first: Math.floor(fromMinute / span), last: Math.ceil(toMinute / span) };
}

/**
 * The roll-up buckets to read for a series: whole chart buckets as one bucket each, the ragged
 * edges of the range as smaller ones. None crosses a chart bucket's edge, so every roll-up row
 * read falls in exactly one chart bucket.
 */
export function seriesRanges(
  fromMinute: number,
  toMinute: number,
  granularity: Granularity,
): BucketRange[] {
  return coveringBuckets(fromMinute, toMinute, granularity === 'day' ? [1440, 60, 1] : [60, 1]);
}

/** One point per chart bucket of the range (empty ones included, so a chart has every bar). */
export function foldSeries(
  fromMinute: number,
  toMinute: number,
  granularity: Granularity,
  rows: ReadonlyArray<{ bucketMinute: number; statusCode: number; requests: number }>,
): SeriesPoint[] {
  const { span, first, last } = seriesBounds(fromMinute, toMinute, granularity);
  const points: SeriesPoint[] = [];
  for (let index = first; index < last; index++) {
    points.push({
      start: new Date(index * span * MINUTE_MS).toISOString(),
      requests: 0,
      succeeded: 0,
      failed: 0,
      rateLimited: 0,
    });
  }
  for (const row of rows) {
    const point = points[Math.floor(row.bucketMinute / span) - first];
    if (!point) continue;
    point.requests += row.requests;
    if (row.statusCode < 400) point.succeeded += row.requests;
    else point.failed += row.requests;
    if (row.statusCode === 429) point.rateLimited += row.requests;
  }
  return points;
}
