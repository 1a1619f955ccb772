import { foldSeries, seriesRanges } from './usage-series';

const minute = (iso: string) => Date.parse(iso) / 60_000;

describe('usage series', () => {
  it('reads whole hours as hour buckets and the ragged edges as minutes', () => {
    const ranges = seriesRanges(
      minute('2026-11-26T10:30:00Z'),
      minute('2026-11-26T13:15:00Z'),
      'hour',
    );
    expect(ranges).toEqual([
      {
        spanMinutes: 1,
        fromMinute: minute('2026-11-26T10:30:00Z'),
        toMinute: minute('2026-11-26T11:00:00Z'),
      },
      {
        spanMinutes: 60,
        fromMinute: minute('2026-11-26T11:00:00Z'),
        toMinute: minute('2026-11-26T13:00:00Z'),
      },
      {
        spanMinutes: 1,
        fromMinute: minute('2026-11-26T13:00:00Z'),
        toMinute: minute('2026-11-26T13:15:00Z'),
      },
    ]);
  });

  it('never reads a roll-up bucket that crosses a UTC day for a daily series', () => {
    const ranges = seriesRanges(
      minute('2026-11-24T22:10:00Z'),
      minute('2026-11-26T01:00:00Z'),
      'day',
    );
    for (const range of ranges) {
      const day = Math.floor(range.fromMinute / 1440);
      if (range.spanMinutes !== 1440) expect(Math.floor((range.toMinute - 1) / 1440)).toBe(day);
    }
    expect(ranges.find((r) => r.spanMinutes === 1440)).toEqual({
      spanMinutes: 1440,
      fromMinute: minute('2026-11-25T00:00:00Z'),
      toMinute: minute('2026-11-26T00:00:00Z'),
    });
  });

  it('has one point per bucket, empty ones included, and counts by status', () => {
    const from = minute('2026-11-26T10:30:00Z');
    const to = minute('2026-11-26T13:15:00Z');
    const points = foldSeries(from, to, 'hour', [
      { bucketMinute: minute('2026-11-26T10:45:00Z'), statusCode: 200, requests: 2 },
      { bucketMinute: minute('2026-11-26T12:00:00Z'), statusCode: 429, requests: 3 },
      { bucketMinute: minute('2026-11-26T12:00:00Z'), statusCode: 200, requests: 1 },
      { bucketMinute: minute('2026-11-26T13:05:00Z'), statusCode: 404, requests: 1 },
    ]);
    expect(points).toEqual([
      { start: '2026-11-26T10:00:00.000Z', requests: 2, succeeded: 2, failed: 0, rateLimited: 0 },
      { start: '2026-11-26T11:00:00.000Z', requests: 0, succeeded: 0, failed: 0, rateLimited: 0 },
      { start: '2026-11-26T12:00:00.000Z', requests: 4, succeeded: 1, failed: 3, rateLimited: 3 },
      { start: '2026-11-26T13:00:00.000Z', requests: 1, succeeded: 0, failed: 1, rateLimited: 0 },
    ]);
  });
});
