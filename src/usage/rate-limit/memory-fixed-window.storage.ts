import type { ThrottlerStorage } from '@nestjs/throttler';

/** What a throttler storage returns, taken from the public ThrottlerStorage interface. */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Fixed-window counters in process memory: the default storage, and the per-instance fallback while
 * Redis is unreachable. A window starts with its first hit and ends `ttl` ms later (spec §8).
 */
export class MemoryFixedWindowStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, { hits: number; resetsAt: number }>();
  private lastSweep: number;

  constructor(private readonly now: () => number = Date.now) {
    this.lastSweep = now();
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetsAt <= now) {
      window = { hits: 0, resetsAt: now + ttl };
      this.windows.set(key, window);
    }
    window.hits += 1;
    const timeToExpire = Math.max(1, Math.ceil((window.resetsAt - now) / 1000));
    const isBlocked = window.hits > limit;
    return {
      totalHits: window.hits,
      timeToExpire,
      isBlocked,
      timeToBlockExpire: isBlocked ? timeToExpire : 0,
    };
  }

  get size(): number {
    return this.windows.size;
  }

  /** Drops finished windows at most once a minute, so idle accounts do not accumulate. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.resetsAt <= now) this.windows.delete(key);
  }
}
