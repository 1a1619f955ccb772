import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 33: the audit trail, append-only. `seq` orders events as they were written (the cursor of
 * GET /api/v1/audit-events); `at` bounds date filters and the retention sweep.
 */
export class Audit1764420000000 implements MigrationInterface {
  name = 'Audit1764420000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'audit_events',
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
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'type', type: 'varchar', length: '64' },
          { name: 'actor_type', type: 'varchar', length: '16' },
          { name: 'actor_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'target_type', type: 'varchar', length: '32', isNullable: true },
          { name: 'target_id', type: 'varchar', length: '128', isNullable: true },
          { name: 'ip', type: 'varchar', length: '64', isNullable: true },
          { name: 'user_agent', type: 'varchar', length: '512', isNullable: true },
          { name: 'request_id', type: 'varchar', length: '128', isNullable: true },
          { name: 'data', type: t.json, isNullable: true },
        ],
        indices: [
          { name: 'IDX_audit_events_account_seq', columnNames: ['account_id', 'seq'] },
          { name: 'IDX_audit_events_at', columnNames: ['at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_events');
  }
}
