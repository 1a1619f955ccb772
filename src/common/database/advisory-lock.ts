import type { DataSource } from 'typeorm';

/**
 * Runs `work` on ONE instance at a time: on PostgreSQL under a session advisory lock
 * (pg_try_advisory_lock on `name` within the current schema, held on a dedicated connection for
 * the whole run); an instance that does not get it resolves `skipped` at once. SQLite is one
 * process by construction: `work` just runs.
 */
export async function withAdvisoryLock<T, S>(
  dataSource: DataSource,
  name: string,
  work: () => Promise<T>,
  skipped: S,
): Promise<T | S> {
  if (dataSource.options.type !== 'postgres') return work();
  const runner = dataSource.createQueryRunner();
  const lock = `hashtext('${name.replace(/'/g, "''")}:' || current_schema())`;
  try {
    const [{ locked }] = (await runner.query(`SELECT pg_try_advisory_lock(${lock}) AS locked`)) as [
      { locked: boolean },
    ];
    if (!locked) return skipped;
    try {
      return await work();
    } finally {
      await runner.query(`SELECT pg_advisory_unlock(${lock})`);
    }
  } finally {
    await runner.release();
  }
}
