/**
 * Per-item retry spacing for a periodic scan: an item whose handling failed is skipped until
 * `baseMs * 2^(failures-1)` (at most `maxMs`) has passed, so one poisoned row neither blocks the
 * others nor is retried (and logged) at every tick. Kept in memory: a restart retries at once.
 */
export class ItemBackoff {
  private readonly failures = new Map<string, { count: number; retryAtMs: number }>();

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
    /** Most items remembered; the oldest is forgotten past it (then retried at once). */
    private readonly maxItems = 10_000,
  ) {}

  /** Whether `key` may be tried now. */
  ready(key: string, nowMs = Date.now()): boolean {
    const entry = this.failures.get(key);
    return !entry || entry.retryAtMs <= nowMs;
  }

  /** Keys still waiting (for a query to skip them). */
  waiting(nowMs = Date.now()): string[] {
    return [...this.failures].filter(([, e]) => e.retryAtMs > nowMs).map(([key]) => key);
  }

  /** Records a failure; answers the failure count (1 on the first: log it then). */
  failed(key: string, nowMs = Date.now()): number {
    const count = (this.failures.get(key)?.count ?? 0) + 1;
    this.failures.delete(key);
    if (this.failures.size >= this.maxItems)
      this.failures.delete(this.failures.keys().next().value as string);
    const delay = Math.min(this.maxMs, this.baseMs * 2 ** Math.min(count - 1, 30));
    this.failures.set(key, { count, retryAtMs: nowMs + delay });
    return count;
  }

  succeeded(key: string): void {
    this.failures.delete(key);
  }
}
