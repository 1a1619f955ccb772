import { CliUsageError } from './cli-usage';
import type { StandaloneResult } from './standalone-commands';

/**
 * `migrate`: runs the pending database migrations once and exits, for operators who start
 * replicas with DATABASE_MIGRATIONS=off. Reads the database settings only (DATABASE_URL,
 * DATABASE_SCHEMA, DATA_DIR or SQLITE_PATH): no chain, no keys. Safe beside starting replicas
 * (the same advisory lock as theirs on PostgreSQL).
 */
export async function migrateCommand(args: string[]): Promise<StandaloneResult> {
  if (args.length > 0) throw new CliUsageError(`migrate takes no options, got: ${args.join(' ')}`);
  // Loaded here: the other standalone commands never pay for TypeORM.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { DataSource } = require('typeorm') as typeof import('typeorm');
  const { databaseConfig } =
    require('../config/database.config') as typeof import('../config/database.config');
  const { buildDataSourceOptions } =
    require('../database/data-source-options') as typeof import('../database/data-source-options');
  const { runMigrationsOnce } =
    require('../database/migrations-runner') as typeof import('../database/migrations-runner');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const config = databaseConfig();
  const dataSource = await new DataSource(buildDataSourceOptions(config))
    .initialize()
    .catch((err: unknown) => {
      throw new Error(`migrate: cannot open the database: ${(err as Error).message}`);
    });
  try {
    const ran = await runMigrationsOnce(dataSource);
    const where =
      config.type === 'postgres'
        ? `PostgreSQL${config.schema ? ` schema ${config.schema}` : ''}`
        : config.path;
    const output =
      ran.length === 0
        ? `${where}: up to date, no migration pending\n`
        : `${where}: ran ${ran.length} migration(s):\n${ran.map((name) => `  ${name}\n`).join('')}`;
    return { exitCode: 0, output };
  } finally {
    await dataSource.destroy();
  }
}
