import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/** Idempotency-Key records (issue 16): one per account and key, replayed for 24 h. */
export class IdempotencyKeys1764200000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'idempotency_key', type: 'varchar', length: '255' },
          { name: 'request_hash', type: 'varchar', length: '64' },
          { name: 'status', type: 'integer', isNullable: true },
          { name: 'response_body', type: 'text', isNullable: true },
          { name: 'expires_at', type: t.timestamp },
        ],
        foreignKeys: [
          {
            columnNames: ['account_id'],
            referencedTableName: 'accounts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [
          { columnNames: ['account_id', 'idempotency_key'], isUnique: true },
          { columnNames: ['expires_at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
  }
}
