/**
 * Requests and errors over the last minute, in one-second buckets: constant memory whatever the
 * traffic (the error rate /health/ready shows per RPC URL).
 */
export class RecentCounts {
  static readonly WINDOW_SECONDS = 60;
  private readonly seconds = new Array<number>(RecentCounts.WINDOW_SECONDS).fill(-1);
  private readonly requests = new Array<number>(RecentCounts.WINDOW_SECONDS).fill(0);
  private readonly errors = new Array<number>(RecentCounts.WINDOW_SECONDS).fill(0);

  record(error: boolean, now = Date.now()): void {
    const second = Math.floor(now / 1000);
    const slot = second % RecentCounts.WINDOW_SECONDS;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.requests[slot] = 0;
      this.errors[slot] = 0;
    }
    this.requests[slot] += 1;
    if (error) this.errors[slot] += 1;
  }

  totals(now = Date.now()): { requests: number; errors: number } {
    const oldest = Math.floor(now / 1000) - RecentCounts.WINDOW_SECONDS + 1;
    let requests = 0;
    let errors = 0;
    for (let slot = 0; slot < RecentCounts.WINDOW_SECONDS; slot++) {
      if (this.seconds[slot] < oldest) continue;
      requests += this.requests[slot];
      errors += this.errors[slot];
    }
    return { requests, errors };
  }
}
