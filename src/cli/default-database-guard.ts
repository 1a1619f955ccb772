/** The global flag that makes the CLI refuse to run on the default SQLite file. */
export const REQUIRE_DATABASE_URL_FLAG = '--require-database-url';

/**
 * Why a command must not run, or null: without DATABASE_URL (and without an explicit SQLITE_PATH)
 * the CLI would open the default SQLite file under DATA_DIR, which in production is nobody's
 * database: `create-account` run without the environment wrote to it and exited 0. In production
 * mode (NODE_ENV=production or APP_MODE=production), or with --require-database-url, that is
 * refused instead.
 */
export function defaultDatabaseRefusal(
  env: Record<string, string | undefined>,
  args: readonly string[],
): string | null {
  if (env.DATABASE_URL || env.SQLITE_PATH) return null;
  const production = env.NODE_ENV === 'production' || env.APP_MODE === 'production';
  const required = args.includes(REQUIRE_DATABASE_URL_FLAG);
  if (!production && !required) return null;
  const why = required
    ? REQUIRE_DATABASE_URL_FLAG
    : `${env.NODE_ENV === 'production' ? 'NODE_ENV' : 'APP_MODE'}=production`;
  return `Refusing to use the default SQLite file (${why}): DATABASE_URL is not set. Run the command with the service's environment (DATABASE_URL=postgres://...), or set SQLITE_PATH to the database file to use.`;
}
