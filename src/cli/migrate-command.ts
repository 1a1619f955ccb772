import { CliUsageError } from './cli-usage';
import { withStandaloneDatabase } from './standalone-database';
import type { StandaloneResult } from './standalone-commands';

/**
 * `migrate`: runs the pending database migrations once and exits, for operators who start
 * replicas with DATABASE_MIGRATIONS=off. Reads the database settings only (DATABASE_URL,
 * DATABASE_SCHEMA, DATA_DIR or SQLITE_PATH): no chain, no keys. Safe beside starting replicas
 * (the same advisory lock as theirs on PostgreSQL).
 */
export async function migrateCommand(args: string[]): Promise<StandaloneResult> {
  if (args.length > 0) throw new CliUsageError(`migrate takes no options, got: ${args.join(' ')}`);
  return withStandaloneDatabase('migrate', async (dataSource, where) => {
    // Loaded here: the other standalone commands never pay for the migrations.
    const { runMigrationsOnce } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('../database/migrations-runner') as typeof import('../database/migrations-runner');
    const ran = await runMigrationsOnce(dataSource);
    const output =
      ran.length === 0
        ? `${where}: up to date, no migration pending\n`
        : `${where}: ran ${ran.length} migration(s):\n${ran.map((name) => `  ${name}\n`).join('')}`;
    return { exitCode: 0, output };
  });
}
