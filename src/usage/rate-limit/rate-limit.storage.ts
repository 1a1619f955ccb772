import { Injectable, Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { RedisConfig } from '../../config/redis.config';
import { MemoryFixedWindowStorage, ThrottlerStorageRecord } from './memory-fixed-window.storage';
import { RedisConnection } from './redis-connection';
import { RedisFailOpen } from './redis-fail-open';
import { RedisFixedWindowStorage } from './redis-fixed-window.storage';

export type RateLimitBackend = 'memory' | 'redis' | 'memory-fallback';

/**
 * Redis outage policy: FAIL OPEN, per instance. While Redis is unreachable (or a command fails or
 * times out) each instance counts in its own memory, with the same windows and limits, logs a
 * warning once per outage and reports Redis "degraded" on /health/ready. Requests never wait on
 * Redis for more than REDIS_COMMAND_TIMEOUT_MS. Worst case during an outage: N instances admit up
 * to N x the limit; the alternative (refusing every request) would turn a limiter outage into a
 * full outage.
 */
@Injectable()
export class RateLimitStorage implements ThrottlerStorage {
  private readonly memory = new MemoryFixedWindowStorage();
  private readonly redis?: RedisFixedWindowStorage;
  private readonly failOpen: RedisFailOpen;

  constructor(
    connection: RedisConnection,
    private readonly config: RedisConfig,
  ) {
    if (connection.client) this.redis = new RedisFixedWindowStorage(connection.client);
    this.failOpen = new RedisFailOpen(
      connection,
      new Logger(RateLimitStorage.name),
      'Rate limiter',
    );
  }

  /** Which store answered the last request: for logs, tests and readiness. */
  get backend(): RateLimitBackend {
    if (!this.redis) return 'memory';
    return this.failOpen.fallingBackToMemory ? 'memory-fallback' : 'redis';
  }

  /** The window was counted in Redis with the month (MonthlyQuotaCounter): Redis answers again. */
  countedWithQuota(): void {
    this.failOpen.answered();
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<ThrottlerStorageRecord> {
    const prefixed = `${this.config.keyPrefix}${key}`;
    return this.failOpen.run(
      () => this.redis!.increment(prefixed, ttl, limit, blockDuration, name),
      () => this.memory.increment(prefixed, ttl, limit),
    );
  }
}
