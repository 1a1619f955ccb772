import type { NextFunction, Request, Response } from 'express';
import { whenResponseEnds } from '../common/http/when-response-ends';

/** Counts requests that have started and not yet finished, so shutdown can wait for them. */
export class InFlightRequests {
  private count = 0;
  private waiters: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  readonly middleware = (_req: Request, res: Response, next: NextFunction): void => {
    this.count += 1;
    whenResponseEnds(res, () => {
      this.count -= 1;
      if (this.count === 0) this.waiters.splice(0).forEach((resolve) => resolve());
    });
    next();
  };

  /** Resolves when no request is in flight, or after `timeoutMs`, whichever comes first. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
