import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';

/** How often the worker checkpoints (SQLite's own default is every 1,000 WAL pages). */
export const CHECKPOINT_INTERVAL_MS = 250;
/** SQLite's default, restored on the service's connection if the worker stops. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * SQLite only (the embedded default): WAL checkpoints run on a worker thread with a connection
 * of its own, not in the service's connection.
 *
 * SQLite checkpoints automatically inside the COMMIT that takes the WAL past 1,000 pages: that
 * COMMIT copies the pages back, fsyncs the WAL and the database, and better-sqlite3 runs it on
 * the event loop. Under load that was a usage batch's COMMIT taking 6-10 ms about twice a second,
 * and every request due meanwhile waited (bench/README.md). The service's
 * connection now never checkpoints (`wal_autocheckpoint = 0`); the worker runs a PASSIVE
 * checkpoint every 250 ms, which neither waits for nor blocks the service's readers and writer.
 * If the worker fails, the service's connection checkpoints itself again, as SQLite does by
 * default. At shutdown the worker closes first, so the service's connection, the last one,
 * checkpoints what is left as it closes.
 */
@Injectable()
export class SqliteCheckpointer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SqliteCheckpointer.name);
  private worker?: Worker;

  constructor(private readonly dataSource: DataSource) {}

  /** True while the worker checkpoints for the service's connection. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { type, database } = this.dataSource.options;
    if (type !== 'better-sqlite3' || typeof database !== 'string' || database === ':memory:')
      return;
    const worker = new Worker(join(__dirname, 'sqlite-checkpoint.worker.js'), {
      workerData: { path: database, intervalMs: CHECKPOINT_INTERVAL_MS },
    });
    try {
      // 'ready' once its connection is open (a file it cannot open is an 'error').
      await new Promise<void>((resolve, reject) => {
        worker.once('message', () => resolve());
        worker.once('error', reject);
      });
    } catch (err) {
      // The service runs on as SQLite does by default, checkpointing in its own connection.
      this.logger.warn({ err: (err as Error).message }, 'SQLite checkpoint worker did not start');
      return;
    }
    // Never what keeps the process alive: shutdown stops it, and a process that exits without
    // shutting down leaves SQLite's usual recovery (the WAL is replayed on the next open).
    worker.unref();
    worker.on('error', (err) => void this.fallBack(worker, err));
    worker.on('exit', (code) => void this.fallBack(worker, new Error(`exit code ${code}`)));
    this.worker = worker;
    await this.dataSource.query('PRAGMA wal_autocheckpoint = 0');
  }

  /** One checkpoint now, on the worker (tests, diagnostics); undefined when none runs. */
  checkpoint(): Promise<CheckpointResult | undefined> {
    const worker = this.worker;
    if (!worker) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const gone = () => resolve(undefined);
      worker.once('exit', gone);
      worker.once('message', (result: CheckpointResult) => {
        worker.off('exit', gone);
        resolve(result);
      });
      worker.postMessage('checkpoint');
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // Held while it closes: an unref'd worker is no reason to wait, and the process would exit
    // (code 0) in the middle of shutdown.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  }

  private async fallBack(worker: Worker, err: Error): Promise<void> {
    if (this.worker !== worker) return; // stopped on purpose
    this.worker = undefined;
    this.logger.error(
      { err: err.message },
      'SQLite checkpoint worker stopped; the service connection checkpoints again',
    );
    try {
      await this.dataSource.query(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    } catch (restoreErr) {
      this.logger.error({ err: (restoreErr as Error).message }, 'wal_autocheckpoint not restored');
    }
  }
}
