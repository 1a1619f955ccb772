import { QueryRunner } from 'typeorm';

/** Column types that differ between the two engines, so one migration serves both. */
export function columnTypes(queryRunner: QueryRunner) {
  const postgres = queryRunner.connection.options.type === 'postgres';
  return {
    timestamp: postgres ? 'timestamptz' : 'datetime',
    id: 'varchar',
    bigint: postgres ? 'bigint' : 'integer',
    now: 'CURRENT_TIMESTAMP',
    json: postgres ? 'jsonb' : 'text',
  };
}
