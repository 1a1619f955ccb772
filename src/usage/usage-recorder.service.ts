import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Repository } from 'typeorm';
import type { Principal } from '../auth/principal';
import { UsageRecord } from './usage-record.entity';

export const USAGE_FLUSH_INTERVAL_MS = 1_000;
export const USAGE_BATCH_SIZE = 200;
/** While the database is down rows wait in memory, up to this many (then the oldest are dropped, loudly). */
const MAX_BUFFERED_ROWS = 50_000;

/**
 * Meters protected requests off the request path: a row is queued when the response finishes and
 * written in batches (every second or every 200 rows). Shutdown flushes in beforeApplicationShutdown,
 * which Nest runs after onModuleDestroy (in-flight requests drained) and before any
 * onApplicationShutdown (where TypeORM closes the data source), so no finished request is lost.
 */
@Injectable()
export class UsageRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(UsageRecorder.name);
  private buffer: UsageRecord[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  constructor(@InjectRepository(UsageRecord) private readonly records: Repository<UsageRecord>) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), USAGE_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    if (this.buffer.length > 0)
      this.logger.error(
        { rows: this.buffer.length },
        'Usage rows could not be written before shutdown',
      );
  }

  /** Called by the auth guard once the caller is known; the row is queued when the response ends. */
  track(req: Request, res: Response, principal: Principal): void {
    const startedAt = new Date();
    const started = performance.now();
    const route = routePattern(req);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const statusCode = res.writableFinished ? res.statusCode : 499;
      this.enqueue({
        id: randomUUID(),
        accountId: principal.accountId,
        authMethod: principal.method,
        apiKeyId: principal.apiKeyId ?? null,
        userId: principal.userId ?? null,
        method: req.method,
        route,
        statusCode,
        code: statusCode >= 400 ? String(res.locals.errorCode ?? 'CLIENT_CLOSED_REQUEST') : null,
        latencyMs: Math.round(performance.now() - started),
        createdAt: startedAt,
      });
    };
    res.once('finish', finish);
    res.once('close', finish);
  }

  get pending(): number {
    return this.buffer.length;
  }

  /** Writes everything queued so far; concurrent calls share one writer, in order. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeBuffered());
    return this.flushing;
  }

  private enqueue(row: UsageRecord): void {
    this.buffer.push(row);
    if (this.buffer.length > MAX_BUFFERED_ROWS) {
      const dropped = this.buffer.splice(0, this.buffer.length - MAX_BUFFERED_ROWS).length;
      this.logger.error(
        { dropped },
        'Usage buffer full (database unavailable?); oldest rows dropped',
      );
    }
    if (this.buffer.length >= USAGE_BATCH_SIZE) void this.flush();
  }

  private async writeBuffered(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, USAGE_BATCH_SIZE);
      try {
        await this.records.insert(batch);
      } catch (err) {
        this.buffer.unshift(...batch);
        this.logger.warn(
          { rows: this.buffer.length, err: (err as Error).message },
          'Usage rows not written yet; will retry',
        );
        return;
      }
    }
  }
}

/** `/api/v1/api-keys/:id`, not the concrete path (ids would explode the endpoint breakdown). */
function routePattern(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}`.slice(0, 200) : 'unmatched';
}
