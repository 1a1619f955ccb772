import { mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { pollUntil } from '../../test/helpers/wait';
import { SqliteCheckpointer } from './sqlite-checkpointer';

const TEN_SECONDS = { timeoutMs: 10_000 };

const PAGE = 4096;
/** ~2,000 WAL pages a burst: twice SQLite's own autocheckpoint threshold. */
const ROWS_PER_BURST = 4000;

const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

describe(SqliteCheckpointer.name, () => {
  let dir: string;
  let path: string;
  let dataSource: DataSource;
  let checkpointer: SqliteCheckpointer;

  const autocheckpoint = async (): Promise<number> =>
    (
      (await dataSource.query('PRAGMA wal_autocheckpoint')) as Array<{ wal_autocheckpoint: number }>
    )[0].wal_autocheckpoint;

  /** One transaction of ROWS_PER_BURST rows of 1 KB, on the service's connection. */
  const burst = async (n: number) =>
    dataSource.transaction(async (manager) => {
      for (let i = 0; i < ROWS_PER_BURST; i += 500)
        await manager.query(
          `INSERT INTO t (v) SELECT printf('%.1024c', ?) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500) SELECT x FROM c)`,
          [String.fromCharCode(97 + (n % 26))],
        );
    });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
    path = join(dir, 'db.sqlite');
    dataSource = new DataSource({ type: 'better-sqlite3', database: path, enableWAL: true });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    checkpointer = new SqliteCheckpointer(dataSource);
    await checkpointer.onApplicationBootstrap();
  });

  afterEach(async () => {
    await checkpointer.beforeApplicationShutdown();
    if (dataSource.isInitialized) await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("turns the service connection's own checkpoints off while the worker runs", async () => {
    expect(checkpointer.running).toBe(true);
    expect(await autocheckpoint()).toBe(0);
  });

  it('copies committed pages into the database file on its own timer, and the WAL is reused', async () => {
    const db = () => sizeOf(path);
    const wal = () => sizeOf(`${path}-wal`);
    const emptyDb = db();
    await burst(0);
    const walAfterOneBurst = wal();
    expect(walAfterOneBurst).toBeGreaterThan(1000 * PAGE);
    // The database file holds every committed page once a checkpoint copied the whole WAL back
    // (pages are copied in page order, the last one extends the file). Waiting only for "some
    // growth" let the next burst start mid-checkpoint, when SQLite cannot restart the WAL yet.
    const pageCount = async () =>
      ((await dataSource.query('PRAGMA page_count')) as Array<{ page_count: number }>)[0]
        .page_count;
    const backfilled = async (what: string) => {
      const pages = await pageCount();
      await pollUntil(what, db, (size) => size >= pages * PAGE, TEN_SECONDS);
      // The timer's checkpoint copied everything; one asked for now finds nothing left and
      // returns once the worker is idle, so the next burst does not start while the worker still
      // holds the WAL's locks (then SQLite appends instead of restarting the WAL).
      const settled = await checkpointer.checkpoint();
      expect(settled?.checkpointed).toBe(settled?.log);
    };
    // No checkpoint asked for: the worker's timer copies the pages back.
    expect(emptyDb).toBeLessThan((await pageCount()) * PAGE);
    await backfilled('the first checkpoint');
    for (let n = 1; n <= 4; n += 1) {
      await burst(n);
      await backfilled(`checkpoint ${n + 1}`);
    }
    // Five bursts written; a WAL nobody checkpointed would hold all of them.
    expect(wal()).toBeLessThan(2.5 * walAfterOneBurst);
    const [{ count }] = (await dataSource.query('SELECT count(*) AS count FROM t')) as Array<{
      count: number;
    }>;
    expect(count).toBe(5 * ROWS_PER_BURST);
  });

  it('answers a checkpoint asked for with what it copied', async () => {
    await burst(0);
    const result = await checkpointer.checkpoint();
    expect(result).toEqual({ busy: 0, log: expect.any(Number), checkpointed: result?.log });
    expect(result!.log).toBeGreaterThan(1000);
  });

  it('gives checkpoints back to the service connection when the worker dies', async () => {
    const worker = (checkpointer as unknown as { worker: { terminate(): Promise<number> } }).worker;
    await worker.terminate();
    await pollUntil('the fallback', autocheckpoint, (pages) => pages === 1000, TEN_SECONDS);
    expect(checkpointer.running).toBe(false);
    expect(await checkpointer.checkpoint()).toBeUndefined();
  });

  it('stops before the data source closes, which checkpoints the rest and removes the WAL', async () => {
    await burst(0);
    await checkpointer.beforeApplicationShutdown();
    expect(checkpointer.running).toBe(false);
    await dataSource.destroy();
    expect(sizeOf(`${path}-wal`)).toBe(0);
    const reopened = new DataSource({ type: 'better-sqlite3', database: path });
    await reopened.initialize();
    const [{ count }] = (await reopened.query('SELECT count(*) AS count FROM t')) as Array<{
      count: number;
    }>;
    await reopened.destroy();
    expect(count).toBe(ROWS_PER_BURST);
  });

  it('leaves checkpoints to the service connection when the worker cannot open the file', async () => {
    const other = join(dir, 'other.sqlite');
    const moved = new DataSource({ type: 'better-sqlite3', database: other, enableWAL: true });
    await moved.initialize();
    // The open connection keeps the file it opened; the worker finds nothing at the path.
    renameSync(other, join(dir, 'renamed.sqlite'));
    const failed = new SqliteCheckpointer(moved);
    await failed.onApplicationBootstrap();
    expect(failed.running).toBe(false);
    expect(await moved.query('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 1000 }]);
    await moved.destroy();
  });

  it('runs no worker for an in-memory database', async () => {
    const memory = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    await memory.initialize();
    const idle = new SqliteCheckpointer(memory);
    await idle.onApplicationBootstrap();
    expect(idle.running).toBe(false);
    await memory.destroy();
  });
});
