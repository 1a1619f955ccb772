import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 15: per-minute and per-hour usage roll-ups (stats read only these), the accounts' monthly
 * quota override, and the indexes the retention sweep deletes by.
 */
export class UsageRollupsQuotas1764300000000 implements MigrationInterface {
  name = 'UsageRollupsQuotas1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.addColumn(
      'accounts',
      new TableColumn({ name: 'monthly_quota', type: 'integer', isNullable: true }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'usage_rollups',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'span_minutes', type: 'integer' },
          // Unix minutes (ms / 60000): an integer compares the same way on both engines.
          { name: 'bucket_minute', type: 'integer' },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'auth_method', type: 'varchar', length: '8' },
          // '' rather than NULL: a unique index (the upsert's conflict target) never matches NULLs.
          { name: 'api_key_id', type: 'varchar', length: '36' },
          { name: 'user_id', type: 'varchar', length: '36' },
          { name: 'method', type: 'varchar', length: '8' },
          { name: 'route', type: 'varchar', length: '200' },
          { name: 'status_code', type: 'integer' },
          { name: 'code', type: 'varchar', length: '64' },
          { name: 'requests', type: 'integer' },
          { name: 'latency_sum_ms', type: t.bigint },
          { name: 'latency_max_ms', type: 'integer' },
          { name: 'last_request_ms', type: t.bigint },
        ],
        indices: [
          {
            name: 'UQ_usage_rollups_bucket',
            isUnique: true,
            columnNames: [
              'account_id',
              'span_minutes',
              'bucket_minute',
              'auth_method',
              'api_key_id',
              'user_id',
              'method',
              'route',
              'status_code',
              'code',
            ],
          },
        ],
      }),
    );
    // The retention sweep's index, on an expression that stats queries never use: on a plain
    // bucket_minute index PostgreSQL scanned every account's edge buckets (measured, bench/README).
    await queryRunner.query(
      'CREATE INDEX "IDX_usage_rollups_age" ON usage_rollups ((bucket_minute + 0))',
    );
    // Stats no longer read raw rows by account; retention deletes them by age. Same index count,
    // so a raw insert costs what it did.
    const records = await queryRunner.getTable('usage_records');
    const byAccount = records?.indices.find(
      (index) => index.columnNames.join(',') === 'account_id,created_at',
    );
    if (byAccount) await queryRunner.dropIndex('usage_records', byAccount);
    await queryRunner.createIndex(
      'usage_records',
      new TableIndex({ name: 'IDX_usage_records_created_at', columnNames: ['created_at'] }),
    );
    await queryRunner.createIndex(
      'refresh_tokens',
      new TableIndex({ name: 'IDX_refresh_tokens_expires_at', columnNames: ['expires_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('refresh_tokens', 'IDX_refresh_tokens_expires_at');
    await queryRunner.dropIndex('usage_records', 'IDX_usage_records_created_at');
    await queryRunner.createIndex(
      'usage_records',
      new TableIndex({ columnNames: ['account_id', 'created_at'] }),
    );
    await queryRunner.dropTable('usage_rollups');
    await queryRunner.dropColumn('accounts', 'monthly_quota');
  }
}
