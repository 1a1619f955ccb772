/** The reliability suite exercises real PostgreSQL and Redis; `.ci/run` provides both. */
export function requireEnv(name: 'TEST_DATABASE_URL' | 'TEST_REDIS_URL'): string {
  const value = process.env[name];
  if (!value) throw new Error(`The reliability suite needs ${name} (see README: Tests)`);
  return value;
}
