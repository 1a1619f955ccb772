import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type * as Pg from 'pg';
import { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/database.config';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** Postgres `timestamp` columns hold UTC; parse them as UTC whatever the process time zone. */
const PG_TIMESTAMP_OID = 1114;

/**
 * Registered when the app uses PostgreSQL (the driver TypeORM loads is this same `pg` module).
 * Loaded only then: on SQLite the service never needs `pg` (~3 MB of heap; docs/architecture.md,
 * "Why hand-written").
 */
function parsePgTimestampsAsUtc(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { types } = require('pg') as typeof Pg;
  types.setTypeParser(PG_TIMESTAMP_OID, (text: string) => new Date(`${text.replace(' ', 'T')}Z`));
}

/** The one options builder, shared by the app (TypeOrmModule) and the TypeORM CLI (ormconfig.ts). */
export function buildDataSourceOptions(config: DatabaseConfig): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    // Run by prepareSchema (DatabaseModule, `migrate` command) under a lock, not by initialize().
    migrationsRun: false,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (config.type === 'postgres') {
    parsePgTimestampsAsUtc();
    return {
      ...common,
      type: 'postgres',
      url: config.url,
      schema: config.schema,
      extra: {
        max: 10,
        // Fail fast when the database is down: requests get a 503 instead of hanging.
        connectionTimeoutMillis: 3_000,
        query_timeout: 10_000,
        options: `-c timezone=UTC${config.schema ? ` -c search_path=${config.schema}` : ''}`,
      },
    };
  }
  mkdirSync(dirname(config.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: config.path,
    // The WAL is checkpointed by a worker thread, not in a request's COMMIT (SqliteCheckpointer).
    enableWAL: true,
    prepareDatabase: (db: { pragma: (sql: string) => unknown }) => {
      db.pragma('busy_timeout = 5000');
      db.pragma('foreign_keys = ON');
    },
  };
}
