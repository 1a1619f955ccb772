import type { RollupGroup } from './usage-rollups.service';

export interface Counts {
  requests: number;
  succeeded: number;
  failed: number;
  rateLimited: number;
}

export interface UsageBreakdown {
  totals: Counts;
  byEndpoint: Array<
    { method: string; route: string; avgLatencyMs: number; maxLatencyMs: number } & Counts
  >;
  byCode: Record<string, number>;
  byKey: Array<
    {
      authMethod: string;
      keyId: string | null;
      userId: string | null;
      lastRequestAt: string | null;
    } & Counts
  >;
}

const zero = (): Counts => ({ requests: 0, succeeded: 0, failed: 0, rateLimited: 0 });

function add(counts: Counts, group: RollupGroup): void {
  counts.requests += group.requests;
  if (group.statusCode < 400) counts.succeeded += group.requests;
  else counts.failed += group.requests;
  if (group.statusCode === 429) counts.rateLimited += group.requests;
}

function entry<T>(map: Map<string, T>, key: string, create: () => T): T {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = create()));
  return value;
}

const byRequestsDesc = (a: Counts, b: Counts) => b.requests - a.requests;

/** Totals, per endpoint, per code and per key, from the range's groups (a few hundred at most). */
export function foldStats(groups: readonly RollupGroup[]): UsageBreakdown {
  const totals = zero();
  const endpoints = new Map<
    string,
    Counts & { method: string; route: string; sum: number; max: number }
  >();
  const codes = new Map<string, number>();
  const keys = new Map<
    string,
    Counts & { authMethod: string; keyId: string | null; userId: string | null; last: number }
  >();
  for (const g of groups) {
    add(totals, g);
    const endpoint = entry(endpoints, `${g.method} ${g.route}`, () => ({
      method: g.method,
      route: g.route,
      ...zero(),
      sum: 0,
      max: 0,
    }));
    add(endpoint, g);
    endpoint.sum += g.latencySumMs;
    endpoint.max = Math.max(endpoint.max, g.latencyMaxMs);
    if (g.code !== null) codes.set(g.code, (codes.get(g.code) ?? 0) + g.requests);
    const key = entry(keys, `${g.authMethod}|${g.apiKeyId}|${g.userId}`, () => ({
      authMethod: g.authMethod,
      keyId: g.apiKeyId,
      userId: g.userId,
      ...zero(),
      last: 0,
    }));
    add(key, g);
    key.last = Math.max(key.last, g.lastRequestMs);
  }
  return {
    totals,
    byEndpoint: [...endpoints.values()].sort(byRequestsDesc).map(({ sum, max, ...e }) =>
      Object.assign(e, {
        avgLatencyMs: e.requests ? Math.round(sum / e.requests) : 0,
        maxLatencyMs: max,
      }),
    ),
    byCode: Object.fromEntries([...codes].sort((a, b) => b[1] - a[1])),
    byKey: [...keys.values()]
      .sort(byRequestsDesc)
      .map(({ last, ...k }) =>
        Object.assign(k, { lastRequestAt: last ? new Date(last).toISOString() : null }),
      ),
  };
}
