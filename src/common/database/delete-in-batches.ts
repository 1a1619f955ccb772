import type { ObjectLiteral, Repository } from 'typeorm';

/**
 * Deletes the rows of `repository` matching `condition` (on alias `t`), at most `batchSize` per
 * statement, until none is left: short statements hold short locks, and on SQLite (synchronous
 * driver) the event loop serves requests between batches. Returns how many rows went.
 */
export async function deleteInBatches<T extends ObjectLiteral>(
  repository: Repository<T>,
  condition: string,
  parameters: ObjectLiteral,
  batchSize: number,
): Promise<number> {
  const primary = repository.metadata.primaryColumns[0].propertyName;
  let deleted = 0;
  for (;;) {
    const rows = await repository
      .createQueryBuilder('t')
      .select(`t.${primary}`, 'id')
      .where(condition, parameters)
      .limit(batchSize)
      .getRawMany<{ id: string | number }>();
    if (rows.length === 0) return deleted;
    const result = await repository.delete(rows.map((row) => row.id) as never);
    deleted += result.affected ?? rows.length;
    if (rows.length < batchSize) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
