/** Pure roll-up arithmetic: folding raw rows into buckets, and covering a range with buckets. */

export const MINUTE_MS = 60_000;
/** The bucket sizes kept, in minutes: minutes, hours and (UTC) days. */
export const SPANS = [1, 60, 1440] as const;

/** What a request is counted under (null: not applicable, e.g. the key of a JWT request). */
export interface UsageDimensions {
  authMethod: string;
  apiKeyId: string | null;
  userId: string | null;
  method: string;
  route: string;
  statusCode: number;
  code: string | null;
}

export type RawUsage = UsageDimensions & { accountId: string; latencyMs: number; createdAt: Date };

export interface RollupDelta {
  spanMinutes: number;
  bucketMinute: number;
  accountId: string;
  authMethod: string;
  apiKeyId: string;
  userId: string;
  method: string;
  route: string;
  statusCode: number;
  code: string;
  requests: number;
  latencySumMs: number;
  latencyMaxMs: number;
  lastRequestMs: number;
}

/**
 * One delta per (span, bucket, dimensions) of a batch, sorted by key: two writers upserting
 * overlapping buckets then lock rows in the same order (no deadlock on PostgreSQL).
 */
export function foldIntoBuckets(rows: readonly RawUsage[]): RollupDelta[] {
  const deltas = new Map<string, RollupDelta>();
  for (const row of rows) {
    const at = row.createdAt.getTime();
    const minute = Math.floor(at / MINUTE_MS);
    // The row's dimensions and their part of the key, once for the three spans.
    const dims = {
      accountId: row.accountId,
      authMethod: row.authMethod,
      apiKeyId: row.apiKeyId ?? '',
      userId: row.userId ?? '',
      method: row.method,
      route: row.route,
      statusCode: row.statusCode,
      code: row.code ?? '',
    };
    const dimsKey = Object.values(dims).join('\u0000');
    for (const spanMinutes of SPANS) {
      const bucketMinute = minute - (minute % spanMinutes);
      const key = `${spanMinutes}\u0000${bucketMinute}\u0000${dimsKey}`;
      const delta = deltas.get(key);
      if (delta) {
        delta.requests += 1;
        delta.latencySumMs += row.latencyMs;
        delta.latencyMaxMs = Math.max(delta.latencyMaxMs, row.latencyMs);
        delta.lastRequestMs = Math.max(delta.lastRequestMs, at);
      } else {
        deltas.set(key, {
          spanMinutes,
          bucketMinute,
          ...dims,
          requests: 1,
          latencySumMs: row.latencyMs,
          latencyMaxMs: row.latencyMs,
          lastRequestMs: at,
        });
      }
    }
  }
  return [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, d]) => d);
}

export interface BucketRange {
  spanMinutes: number;
  /** Unix minutes, inclusive. */
  fromMinute: number;
  /** Unix minutes, exclusive. */
  toMinute: number;
}

/**
 * The fewest buckets that cover [fromMinute, toMinute): whole days as day buckets, the ragged
 * edges as hour buckets, their ragged edges as minute buckets. A 30-day range reads at most 30 day
 * buckets, 46 hour and 118 minute buckets per dimension set, however many requests it holds.
 */
export function coveringBuckets(
  fromMinute: number,
  toMinute: number,
  spans: readonly number[] = [...SPANS].reverse(),
): BucketRange[] {
  if (fromMinute >= toMinute) return [];
  const [span, ...smaller] = spans;
  if (smaller.length === 0) return [{ spanMinutes: span, fromMinute, toMinute }];
  const first = Math.ceil(fromMinute / span) * span;
  const last = Math.floor(toMinute / span) * span;
  if (first >= last) return coveringBuckets(fromMinute, toMinute, smaller);
  return [
    ...coveringBuckets(fromMinute, first, smaller),
    { spanMinutes: span, fromMinute: first, toMinute: last },
    ...coveringBuckets(last, toMinute, smaller),
  ];
}
