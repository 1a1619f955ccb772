import { coveringBuckets, foldIntoBuckets, RawUsage } from './rollup-buckets';

describe('coveringBuckets', () => {
  it('covers a range exactly once with days in the middle, hours and minutes at the edges', () => {
    const day = 1440;
    const from = 10 * day + 2 * 60 + 17; // day 10, 02:17
    const to = 13 * day + 5 * 60 + 43; // day 13, 05:43
    const ranges = coveringBuckets(from, to);
    expect(ranges).toEqual([
      { spanMinutes: 1, fromMinute: from, toMinute: 10 * day + 180 },
      { spanMinutes: 60, fromMinute: 10 * day + 180, toMinute: 11 * day },
      { spanMinutes: 1440, fromMinute: 11 * day, toMinute: 13 * day },
      { spanMinutes: 60, fromMinute: 13 * day, toMinute: 13 * day + 300 },
      { spanMinutes: 1, fromMinute: 13 * day + 300, toMinute: to },
    ]);
    // Contiguous, no gap, no overlap; each range aligned to its span.
    for (let i = 1; i < ranges.length; i++)
      expect(ranges[i].fromMinute).toBe(ranges[i - 1].toMinute);
    for (const r of ranges)
      expect([r.fromMinute % r.spanMinutes, r.toMinute % r.spanMinutes]).toEqual([0, 0]);
  });

  it('uses minute buckets alone inside one hour, and nothing for an empty range', () => {
    expect(coveringBuckets(125, 170)).toEqual([{ spanMinutes: 1, fromMinute: 125, toMinute: 170 }]);
    expect(coveringBuckets(60, 180)).toEqual([{ spanMinutes: 60, fromMinute: 60, toMinute: 180 }]);
    expect(coveringBuckets(5, 5)).toEqual([]);
  });
});

describe('foldIntoBuckets', () => {
  const row = (minute: number, latencyMs: number, code: string | null = null): RawUsage => ({
    accountId: 'a',
    authMethod: 'api_key',
    apiKeyId: 'k',
    userId: null,
    method: 'GET',
    route: '/r',
    statusCode: code ? 429 : 200,
    code,
    latencyMs,
    createdAt: new Date(minute * 60_000 + 1_000),
  });

  it('sums each (span, bucket, dimensions) once, with latency sum and max and the last request', () => {
    const deltas = foldIntoBuckets([row(61, 10), row(61, 30), row(62, 5), row(61, 7, 'X')]);
    const of = (span: number, bucket: number, code = '') =>
      deltas.find((d) => d.spanMinutes === span && d.bucketMinute === bucket && d.code === code);
    expect(of(1, 61)).toMatchObject({ requests: 2, latencySumMs: 40, latencyMaxMs: 30 });
    expect(of(1, 62)).toMatchObject({ requests: 1, latencySumMs: 5, userId: '' });
    expect(of(60, 60)).toMatchObject({
      requests: 3,
      latencySumMs: 45,
      latencyMaxMs: 30,
      lastRequestMs: 62 * 60_000 + 1_000,
    });
    expect(of(1440, 0)).toMatchObject({ requests: 3 });
    expect(of(60, 60, 'X')).toMatchObject({ requests: 1, statusCode: 429 });
    expect(deltas).toHaveLength(7); // minutes 61, 62 and 61/X; hour and day, each with and without X
  });
});
