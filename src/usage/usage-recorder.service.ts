import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ShutdownReport } from '../lifecycle/shutdown-report';
import { insertUsageRecords } from './insert-usage-records';
import { foldIntoBuckets } from './rollups/rollup-buckets';
import { UsageRollupsService } from './rollups/usage-rollups.service';
import { UsageRecord } from './usage-record.entity';

/**
 * What a SIGKILL can lose: the rows of the requests answered in the last flush interval (at most
 * a batch being written plus what queued since). 250 ms, not 1 s (issue 34): at >= 800 req/s
 * batches fill to 200 rows first and nothing changes; at 200 req/s the smaller batches cost 25 µs
 * of CPU a request more (2 % of a swap build); writing each row through Redis instead would cost
 * 89 µs (bench/README.md, `npm run bench:usage-durability`).
 */
export const USAGE_FLUSH_INTERVAL_MS = 250;
export const USAGE_BATCH_SIZE = 200;
/** While the database is down rows wait in memory, up to this many (then the oldest are dropped, loudly). */
const MAX_BUFFERED_ROWS = 50_000;

/**
 * Writes usage rows off the request path: UsageRecordingMiddleware queues a row when a metered
 * response finishes; rows are written in batches (every 250 ms or every 200 rows). Shutdown
 * flushes in beforeApplicationShutdown, which Nest runs after onModuleDestroy (in-flight requests
 * drained) and before any onApplicationShutdown (where TypeORM closes the data source), so no
 * finished request is lost. Each batch and its roll-up deltas are written in one transaction, so
 * stats (read from roll-ups) and the raw rows never disagree.
 */
@Injectable()
export class UsageRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(UsageRecorder.name);
  private buffer: UsageRecord[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly rollups: UsageRollupsService,
    @Optional() private readonly report?: ShutdownReport,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), USAGE_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    const queued = this.buffer.length;
    await this.flush();
    if (this.buffer.length > 0)
      this.logger.error(
        { rows: this.buffer.length },
        'Usage rows could not be written before shutdown',
      );
    this.report?.note(
      'usageRows',
      { flushed: queued - this.buffer.length, lost: this.buffer.length },
      `${queued - this.buffer.length} usage row(s) written${this.buffer.length > 0 ? `, ${this.buffer.length} LOST (the database did not answer)` : ''}`,
    );
  }

  get pending(): number {
    return this.buffer.length;
  }

  /** Writes everything queued so far; concurrent calls share one writer, in order. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeBuffered());
    return this.flushing;
  }

  /** Queues one row (see UsageRecordingMiddleware); written within 250 ms or at 200 rows. */
  record(row: UsageRecord): void {
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

  /**
   * The raw rows and their roll-up deltas (the caller's transaction): two statements, costing less
   * per request than the plain TypeORM insert the recorder did before roll-ups (bench/README).
   */
  async writeBatch(manager: EntityManager, batch: UsageRecord[]): Promise<void> {
    await insertUsageRecords(manager, batch);
    await this.rollups.add(manager, foldIntoBuckets(batch));
  }

  private async writeBuffered(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, USAGE_BATCH_SIZE);
      try {
        await this.dataSource.transaction((manager) => this.writeBatch(manager, batch));
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
