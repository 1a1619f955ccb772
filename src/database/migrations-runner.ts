import { DataSource, MigrationExecutor } from 'typeorm';

/**
 * The advisory lock's first key: this application's migrations. The second is the schema's hash,
 * so apps on different schemas of one database (tests, staging beside production) do not wait on
 * each other. Any fixed 32-bit number works; this one spells "cgkm".
 */
export const MIGRATIONS_LOCK_KEY = 0x63676b6d;

const LOCK_SQL = `SELECT pg_advisory_lock($1, hashtext(coalesce(current_schema(), '')))`;
const UNLOCK_SQL = `SELECT pg_advisory_unlock($1, hashtext(coalesce(current_schema(), '')))`;

/** DATABASE_MIGRATIONS=off and the schema lacks migrations this code needs. */
export class SchemaBehindError extends Error {
  constructor(readonly pending: string[]) {
    super(
      `DATABASE_MIGRATIONS=off and the database schema is behind this version: ${pending.length} pending migration(s) (${pending.join(', ')}). Run \`npm run migrate\` (or \`node dist/cli/main.js migrate\`) once, then start the replicas.`,
    );
    this.name = 'SchemaBehindError';
  }
}

/**
 * Runs the pending migrations, each in its own transaction, and returns their names. On PostgreSQL
 * under a session advisory lock held on a dedicated connection: replicas starting together take
 * turns, the first runs what is pending (the migrations table included) and the others find
 * nothing left to do. Before it, three replicas on an empty schema raced to create the same tables
 * and two failed at boot with `duplicate key value violates unique constraint
 * "pg_type_typname_nsp_index"` (issue 34). SQLite has one process per database file: no lock.
 */
export async function runMigrationsOnce(dataSource: DataSource): Promise<string[]> {
  const run = async () =>
    (await dataSource.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
  if (dataSource.options.type !== 'postgres') return run();
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query(LOCK_SQL, [MIGRATIONS_LOCK_KEY]);
    try {
      return await run();
    } finally {
      await lock.query(UNLOCK_SQL, [MIGRATIONS_LOCK_KEY]);
    }
  } finally {
    // An unlock that failed means a broken connection: PostgreSQL releases a session's advisory
    // locks when the session ends.
    await lock.release();
  }
}

/** Names of the migrations this code has that the database has not run (reads only). */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  const pending = await new MigrationExecutor(dataSource).getPendingMigrations();
  return pending.map((migration) => migration.name);
}

/**
 * What a starting instance does with migrations: `auto` runs what is pending (once, see
 * runMigrationsOnce); `off` runs nothing and refuses to start on a schema that is behind, since
 * this code would fail on the first request that touches a missing table or column.
 */
export async function prepareSchema(dataSource: DataSource, mode: 'auto' | 'off'): Promise<void> {
  if (mode === 'auto') {
    await runMigrationsOnce(dataSource);
    return;
  }
  const pending = await pendingMigrations(dataSource);
  if (pending.length > 0) throw new SchemaBehindError(pending);
}
