import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { compactScript, fixedWindowHit } from './fixed-window-script';

/**
 * The Redis storage of @nest-lab/throttler-storage-redis with a fixed-window script: the package's
 * own script blocks for `blockDuration` from the moment the limit is crossed, which outlives the
 * window; spec §8 wants the count to reset when the 60 s window does. One atomic EVAL per request.
 * Returns the package's tuple {totalHits, timeToExpire ms, isBlocked, timeToBlockExpire ms}.
 */
export class RedisFixedWindowStorage extends ThrottlerStorageRedisService {
  override getScriptSrc(): string {
    return compactScript(`
      ${fixedWindowHit('KEYS[1]', 'ARGV[2]')}
      local blocked = 0
      if hits > tonumber(ARGV[3]) then blocked = 1 end
      return { hits, ttl, blocked, blocked * ttl }
    `);
  }
}
