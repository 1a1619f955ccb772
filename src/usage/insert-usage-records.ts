import { EntityManager } from 'typeorm';
import { placeholders } from '../common/database/placeholders';
import { UsageRecord } from './usage-record.entity';

/** 11 parameters a row: 500 rows stay far below both engines' bound-parameter limits. */
const INSERT_CHUNK = 500;

/**
 * Inserts usage rows with one hand-built multi-row INSERT per 500 rows, in the caller's
 * transaction. Same columns and same stored values as `manager.insert(UsageRecord, rows)` (the
 * columns come from the entity's metadata, each value goes through the driver's own
 * preparePersistentValue), without the query builder around it: TypeORM's insert cost twice this
 * on both engines, a 200-row batch's roll-up upsert included (bench/README, issue 15). A test
 * compares the rows read back with rows written by repository.insert, on both engines.
 */
export async function insertUsageRecords(
  manager: EntityManager,
  rows: readonly UsageRecord[],
): Promise<void> {
  const { driver } = manager.connection;
  const columns = manager.connection.getMetadata(UsageRecord).columns;
  const names = columns.map((column) => driver.escape(column.databaseName)).join(', ');
  const mark = placeholders(manager);
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const params: unknown[] = [];
    const tuples = rows.slice(start, start + INSERT_CHUNK).map((row) => {
      const values = columns.map((column) =>
        mark(
          params,
          driver.preparePersistentValue(column.getEntityValue(row as object), column) ?? null,
        ),
      );
      return `(${values.join(', ')})`;
    });
    await manager.query(`INSERT INTO usage_records (${names}) VALUES ${tuples.join(', ')}`, params);
  }
}
