/** The global flag that makes the CLI refuse to run on the default SQLite file. */
export const REQUIRE_DATABASE_URL_FLAG = '--require-database-url';

/**
 * Why a command must not run, or null. Without DATABASE_URL, SQLITE_PATH or DATA_DIR the CLI
 * would open the default SQLite file (./data/app.sqlite), which in production is nobody's
 * database: `create-account` run without the environment wrote to it and exited 0. In production
 * mode (NODE_ENV=production or APP_MODE=production) that is refused; a production install on
 * SQLite names its file with DATA_DIR or SQLITE_PATH. With --require-database-url, anything but
 * DATABASE_URL is refused.
 */
export function defaultDatabaseRefusal(
  env: Record<string, string | undefined>,
  args: readonly string[],
): string | null {
  if (env.DATABASE_URL) return null;
  if (args.includes(REQUIRE_DATABASE_URL_FLAG))
    return `Refusing to run without DATABASE_URL (${REQUIRE_DATABASE_URL_FLAG}): run the command with the service's environment (DATABASE_URL=postgres://...).`;
  if (env.SQLITE_PATH || env.DATA_DIR) return null;
  const production = env.NODE_ENV === 'production' || env.APP_MODE === 'production';
  if (!production) return null;
  const why = `${env.NODE_ENV === 'production' ? 'NODE_ENV' : 'APP_MODE'}=production`;
  return `Refusing to use the default SQLite file (${why}): none of DATABASE_URL, SQLITE_PATH or DATA_DIR is set. Run the command with the service's environment.`;
}
