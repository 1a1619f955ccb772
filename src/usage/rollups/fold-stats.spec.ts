import { foldStats } from './fold-stats';
import type { RollupGroup } from './usage-rollups.service';

const group = (over: Partial<RollupGroup>): RollupGroup => ({
  authMethod: 'api_key',
  apiKeyId: 'k1',
  userId: null,
  method: 'POST',
  route: '/api/v1/defi/swap',
  statusCode: 200,
  code: null,
  requests: 1,
  latencySumMs: 10,
  latencyMaxMs: 10,
  lastRequestMs: 1_795_000_000_000,
  ...over,
});

describe('foldStats', () => {
  // The rows are built with Object.assign on the destructured rest, not `{ ...e, more }` (V8 11.3
  // builds new hidden classes for that form on every call: bench/object-spread.ts). The answer keeps
  // its members, values and member order.
  it('folds groups into per-endpoint and per-key rows, members in the documented order', () => {
    const stats = foldStats([
      group({ requests: 3, latencySumMs: 30, latencyMaxMs: 20 }),
      group({ statusCode: 429, code: 'RATE_LIMIT_EXCEEDED', requests: 1, latencySumMs: 2 }),
      group({
        method: 'GET',
        route: '/api/v1/defi/config',
        authMethod: 'jwt',
        apiKeyId: null,
        userId: 'u1',
      }),
    ]);

    expect(stats.totals).toEqual({ requests: 5, succeeded: 4, failed: 1, rateLimited: 1 });
    expect(stats.byEndpoint).toStrictEqual([
      {
        method: 'POST',
        route: '/api/v1/defi/swap',
        requests: 4,
        succeeded: 3,
        failed: 1,
        rateLimited: 1,
        avgLatencyMs: 8,
        maxLatencyMs: 20,
      },
      {
        method: 'GET',
        route: '/api/v1/defi/config',
        requests: 1,
        succeeded: 1,
        failed: 0,
        rateLimited: 0,
        avgLatencyMs: 10,
        maxLatencyMs: 10,
      },
    ]);
    expect(Object.keys(stats.byEndpoint[0])).toEqual([
      'method',
      'route',
      'requests',
      'succeeded',
      'failed',
      'rateLimited',
      'avgLatencyMs',
      'maxLatencyMs',
    ]);
    expect(stats.byCode).toEqual({ RATE_LIMIT_EXCEEDED: 1 });
    expect(stats.byKey).toStrictEqual([
      {
        authMethod: 'api_key',
        keyId: 'k1',
        userId: null,
        requests: 4,
        succeeded: 3,
        failed: 1,
        rateLimited: 1,
        lastRequestAt: new Date(1_795_000_000_000).toISOString(),
      },
      {
        authMethod: 'jwt',
        keyId: null,
        userId: 'u1',
        requests: 1,
        succeeded: 1,
        failed: 0,
        rateLimited: 0,
        lastRequestAt: new Date(1_795_000_000_000).toISOString(),
      },
    ]);
  });
});
