import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { RedisConfig } from '../../config/redis.config';
import type { ThrottlerStorageRecord } from '../rate-limit/memory-fixed-window.storage';
import { compactScript, fixedWindowHit } from '../rate-limit/fixed-window-script';
import { RATE_LIMIT_WINDOW_MS, redisRateLimitKey } from '../rate-limit/rate-limit-key';
import { RedisFailOpen } from '../rate-limit/redis-fail-open';
import { RedisConnection } from '../rate-limit/redis-connection';
import { MINUTE_MS } from '../rollups/rollup-buckets';
import { UsageRollupsService } from '../rollups/usage-rollups.service';
import { UsageRecorder } from '../usage-recorder.service';
import { UsageRollup } from '../rollups/usage-rollup.entity';
import type { CalendarMonth } from './calendar-month';
import { dashboardReadsSince } from './dashboard-reads';

export interface QuotaCount {
  /** Requests counted this month, this one included when admitted. */
  used: number;
  admitted: boolean;
  /**
   * The account's per-minute window, counted in the same Redis round trip when admitted (the
   * rate-limit guard then counts nothing); absent when counted in memory.
   */
  rateLimit?: ThrottlerStorageRecord & { limit: number };
}

/**
 * The month's check-and-count, then the minute's, in one atomic step: one Redis round trip per
 * request for both (issue 34). A missing month counter answers {-1, 0} unless a seed is given:
 * the caller then reads the month so far from the database roll-ups and calls again with it (SET
 * only if still missing, so concurrent seeders agree). A request the quota refuses is counted in
 * neither (the quota guard runs before the rate limit: same outcome as two guards counting
 * apart). The minute's window is RedisFixedWindowStorage's (same key, same fixed window).
 * KEYS[1] month counter, KEYS[2] minute window; ARGV: quota (-1 unlimited), seed (-1 none),
 * month ttl ms, window ms. Returns {used, admitted, hits, window ms left}.
 */
const CONSUME_SCRIPT = compactScript(`
local limit = tonumber(ARGV[1])
local seed = tonumber(ARGV[2])
if redis.call('EXISTS', KEYS[1]) == 0 then
  if seed < 0 then return {-1, 0, 0, 0} end
  redis.call('SET', KEYS[1], seed, 'PX', ARGV[3], 'NX')
end
local used = tonumber(redis.call('GET', KEYS[1]))
if limit >= 0 and used >= limit then return {used, 0, 0, 0} end
used = redis.call('INCR', KEYS[1])
${fixedWindowHit('KEYS[2]', 'ARGV[4]')}
return {used, 1, hits, ttl}
`);

/** The script under a name: ioredis sends EVALSHA (the script once per connection, not per request). */
const CONSUME_COMMAND = 'cgkConsumeQuotaAndMinute';
type ConsumeCommand = (
  quotaKey: string,
  windowKey: string,
  limit: number,
  seed: number,
  ttlMs: number,
  windowMs: number,
) => Promise<[number, number, number, number]>;

/** A month's counter outlives the month by a day, then Redis drops it. */
const COUNTER_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Monthly request counters per account: in Redis when REDIS_URL is set (shared by instances), in
 * memory otherwise. Cold start: a counter this process or Redis does not hold yet is seeded from
 * the database roll-ups (the month so far), so a restart, or a Redis without the key, does not
 * reset the month. Redis outage: the rate limit's rule, FAIL OPEN per instance (each instance
 * counts in memory, seeded from the database, and logs once).
 */
@Injectable()
export class MonthlyQuotaCounter {
  private readonly memory = new Map<string, { used: number; resetsAt: number }>();
  private readonly seeding = new Map<string, Promise<number>>();
  private readonly failOpen: RedisFailOpen;

  constructor(
    private readonly connection: RedisConnection,
    private readonly config: RedisConfig,
    private readonly rollups: UsageRollupsService,
    private readonly recorder: UsageRecorder,
    @InjectRepository(UsageRollup) private readonly rollupRows: Repository<UsageRollup>,
  ) {
    this.failOpen = new RedisFailOpen(
      connection,
      new Logger(MonthlyQuotaCounter.name),
      'Monthly quota',
    );
  }

  /** Where the month is counted now: Redis, or this instance's memory while Redis does not answer. */
  get backend(): 'redis' | 'memory-fallback' {
    return this.failOpen.fallingBackToMemory ? 'memory-fallback' : 'redis';
  }

  /**
   * Counts a request against the month and, with Redis, against the minute's window of
   * `requestsPerMinute` (QuotaCount.rateLimit), in one round trip.
   */
  consume(
    accountId: string,
    limit: number | null,
    month: CalendarMonth,
    requestsPerMinute: number,
  ): Promise<QuotaCount> {
    return this.failOpen.run(
      () => this.consumeInRedis(accountId, limit, month, requestsPerMinute),
      () => this.consumeInMemory(accountId, limit, month),
    );
  }

  /**
   * The month's count without counting this request (the dashboard's own reads): the quota
   * headers stay accurate and nothing is spent. A seed read here is kept as `consume` keeps it
   * (SET NX in Redis, the in-memory counter otherwise), so free reads of an account with nothing
   * counted yet this month read the database once, not at every request.
   */
  peek(accountId: string, month: CalendarMonth): Promise<number> {
    return this.failOpen.run(
      async () => {
        const key = `${this.config.keyPrefix}quota:${accountId}:${month.key}`;
        const client = this.connection.client!;
        const value = await client.get(key);
        if (value !== null) return Number(value);
        const seed = await this.seed(accountId, month);
        const ttl = Math.max(1, month.resetsAt - Date.now()) + COUNTER_GRACE_MS;
        if ((await client.set(key, seed, 'PX', ttl, 'NX')) === 'OK') return seed;
        return Number((await client.get(key)) ?? seed);
      },
      async () => (await this.memoryCounter(accountId, month)).used,
    );
  }

  private async consumeInRedis(
    accountId: string,
    limit: number | null,
    month: CalendarMonth,
    requestsPerMinute: number,
  ): Promise<QuotaCount> {
    const key = `${this.config.keyPrefix}quota:${accountId}:${month.key}`;
    const windowKey = redisRateLimitKey(this.config.keyPrefix, accountId);
    const ttl = Math.max(1, month.resetsAt - Date.now()) + COUNTER_GRACE_MS;
    const command = this.command();
    const run = async (seed: number): Promise<QuotaCount> => {
      const [used, admitted, hits, windowLeftMs] = await command(
        key,
        windowKey,
        limit ?? -1,
        seed,
        ttl,
        RATE_LIMIT_WINDOW_MS,
      );
      if (admitted !== 1) return { used: Number(used), admitted: false };
      // The storage's record, as @nest-lab/throttler-storage-redis converts it (seconds, rounded up).
      const timeToExpire = Math.ceil(windowLeftMs / 1000);
      const isBlocked = hits > requestsPerMinute;
      return {
        used: Number(used),
        admitted: true,
        rateLimit: {
          limit: requestsPerMinute,
          totalHits: hits,
          timeToExpire,
          isBlocked,
          timeToBlockExpire: isBlocked ? timeToExpire : 0,
        },
      };
    };
    const first = await run(-1);
    return first.used >= 0 ? first : run(await this.seed(accountId, month));
  }

  private async consumeInMemory(
    accountId: string,
    limit: number | null,
    month: CalendarMonth,
  ): Promise<QuotaCount> {
    const counter = await this.memoryCounter(accountId, month);
    if (limit !== null && counter.used >= limit) return { used: counter.used, admitted: false };
    counter.used += 1;
    return { used: counter.used, admitted: true };
  }

  /** This process's counter of the month, seeded from the roll-ups when it has none yet. */
  private async memoryCounter(
    accountId: string,
    month: CalendarMonth,
  ): Promise<{ used: number; resetsAt: number }> {
    const key = `${accountId}:${month.key}`;
    if (!this.memory.has(key)) {
      const used = await this.seed(accountId, month);
      if (!this.memory.has(key)) {
        this.sweep();
        this.memory.set(key, { used, resetsAt: month.resetsAt });
      }
    }
    return this.memory.get(key)!;
  }

  /** The month so far from the roll-ups (this instance's queued rows written first); one read at a time per account. */
  private seed(accountId: string, month: CalendarMonth): Promise<number> {
    const key = `${accountId}:${month.key}`;
    let pending = this.seeding.get(key);
    if (!pending) {
      pending = this.recorder
        .flush()
        .then(async () => {
          const fromMinute = month.startsAt / MINUTE_MS;
          const [all, free] = await Promise.all([
            this.rollups.quotaUsedSince(accountId, fromMinute),
            dashboardReadsSince(this.rollupRows, accountId, fromMinute),
          ]);
          return Math.max(0, all - free);
        })
        .finally(() => this.seeding.delete(key));
      this.seeding.set(key, pending);
    }
    return pending;
  }

  private command(): ConsumeCommand {
    const client = this.connection.client! as unknown as Record<string, ConsumeCommand | undefined>;
    if (!client[CONSUME_COMMAND])
      this.connection.client!.defineCommand(CONSUME_COMMAND, {
        numberOfKeys: 2,
        lua: CONSUME_SCRIPT,
      });
    return client[CONSUME_COMMAND]!.bind(client);
  }

  /** Forgets past months' counters. */
  private sweep(): void {
    const now = Date.now();
    for (const [key, counter] of this.memory) if (counter.resetsAt <= now) this.memory.delete(key);
  }
}
