import { Injectable } from '@nestjs/common';
import { Metrics } from '../metrics/metrics.service';
import { MonthlyQuotaCounter } from './quota/monthly-quota.counter';
import { RateLimitStorage } from './rate-limit/rate-limit.storage';
import { RedisConnection } from './rate-limit/redis-connection';

/**
 * cgk_redis_fail_open{store}: 1 while a store counts in this instance only. Read at each scrape:
 * the store's last answer came from memory, or the client is not connected (so the next request
 * will), which moves the gauge with no traffic. Absent when REDIS_URL is unset (nothing to fail).
 */
@Injectable()
export class RedisFailOpenMetrics {
  constructor(
    metrics: Metrics,
    connection: RedisConnection,
    rateLimit: RateLimitStorage,
    quota: MonthlyQuotaCounter,
  ) {
    if (!connection.client) return;
    const stores = { rate_limit: rateLimit, quota };
    metrics.onScrape('redis-fail-open', async () => {
      const down = !connection.isReady;
      for (const [store, counter] of Object.entries(stores))
        metrics.redisFailOpen.set({ store }, down || counter.backend === 'memory-fallback' ? 1 : 0);
    });
  }
}
