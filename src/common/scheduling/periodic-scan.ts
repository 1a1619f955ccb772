import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ItemBackoff } from './item-backoff';

/**
 * A scan that runs every `intervalMs` (0: never on a timer) on each instance from the
 * application's start until its shutdown (which waits for the pass in flight). `runOnce()` runs a
 * pass now; overlapping calls share it. A failing pass is logged, under the subclass's name, and
 * the next tick tries again.
 */
export abstract class PeriodicScan<T = number>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  protected readonly logger = new Logger(this.constructor.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<T>;

  constructor(private readonly intervalMs: number) {}
  /** One pass; resolves to what it did (by default the items it handled: events recorded). */
  protected abstract scan(): Promise<T>;

  /** What a failed pass resolves to, once logged (by default: 0 items handled). */
  protected failedPass(): T {
    return 0 as T;
  }

  /** A pass is in flight. */
  protected get busy(): boolean {
    return this.running !== undefined;
  }

  onApplicationBootstrap(): void | Promise<void> {
    if (this.intervalMs <= 0) return;
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  runOnce(): Promise<T> {
    this.running ??= this.scan()
      .catch((err: unknown) => {
        this.logger.warn({ err: (err as Error).message }, 'pass failed');
        return this.failedPass();
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /**
   * Handles up to `limit` of `items` that `backoff` lets through, each on its own: one item's
   * failure neither stops the others nor is retried (or logged) at every tick; it is logged at
   * its 1st, 2nd, 4th, 8th... failure with `describe(item)`. Resolves to the items handled.
   */
  protected async eachReady<T>(
    items: readonly T[],
    options: {
      backoff: ItemBackoff;
      limit: number;
      keyOf: (item: T) => string;
      describe: (item: T) => Record<string, unknown>;
      failure: string;
    },
    handle: (item: T) => Promise<boolean>,
  ): Promise<number> {
    const { backoff, keyOf } = options;
    const ready = items.filter((item) => backoff.ready(keyOf(item))).slice(0, options.limit);
    let handled = 0;
    for (const item of ready) {
      try {
        if (await handle(item)) handled += 1;
        backoff.succeeded(keyOf(item));
      } catch (err) {
        const failures = backoff.failed(keyOf(item));
        if (failures === 1 || Number.isInteger(Math.log2(failures)))
          this.logger.warn(
            { err: (err as Error).message, ...options.describe(item), failures },
            options.failure,
          );
      }
    }
    return handled;
  }
}
