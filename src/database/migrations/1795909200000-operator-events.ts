import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 58: operator changes that belong to no account (issuers, sanctions list, attester funding
 * and keys, secret rotations), append-only (src/audit/operator-event.entity.ts).
 */
export class OperatorEvents1795909200000 implements MigrationInterface {
  name = 'OperatorEvents1795909200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'operator_events',
        columns: [
          {
            name: 'seq',
            type: t.bigint,
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'id', type: t.id, length: '36', isUnique: true },
          { name: 'at', type: t.timestamp },
          { name: 'type', type: 'varchar', length: '64' },
          { name: 'actor_type', type: 'varchar', length: '16' },
          { name: 'actor_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'target_type', type: 'varchar', length: '32', isNullable: true },
          { name: 'target_id', type: 'varchar', length: '128', isNullable: true },
          { name: 'data', type: t.json, isNullable: true },
        ],
        indices: [{ name: 'IDX_operator_events_at', columnNames: ['at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('operator_events');
  }
}
