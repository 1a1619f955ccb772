import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/** API keys, login sessions with their refresh tokens, and the usage ledger (issue 3). */
export class AuthKeysUsage1763800000000 implements MigrationInterface {
  name = 'AuthKeysUsage1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    const accountFk = {
      columnNames: ['account_id'],
      referencedTableName: 'accounts',
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    };
    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'created_by_user_id', type: t.id, length: '36', isNullable: true },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'mode', type: 'varchar', length: '4' },
          { name: 'lookup_prefix', type: 'varchar', length: '12', isUnique: true },
          { name: 'key_hash', type: 'varchar', length: '64' },
          { name: 'scopes', type: 'text' },
          { name: 'active', type: 'boolean' },
          { name: 'expires_at', type: t.timestamp, isNullable: true },
          { name: 'last_used_at', type: t.timestamp, isNullable: true },
          { name: 'revoked_at', type: t.timestamp, isNullable: true },
          { name: 'created_at', type: t.timestamp, default: t.now },
        ],
        foreignKeys: [accountFk],
        indices: [{ columnNames: ['account_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'auth_sessions',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'user_id', type: t.id, length: '36' },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'revoked_at', type: t.timestamp, isNullable: true },
          { name: 'revoked_reason', type: 'varchar', length: '32', isNullable: true },
          { name: 'created_at', type: t.timestamp, default: t.now },
        ],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          accountFk,
        ],
        indices: [{ columnNames: ['user_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'refresh_tokens',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'session_id', type: t.id, length: '36' },
          { name: 'token_hash', type: 'varchar', length: '64' },
          { name: 'expires_at', type: t.timestamp },
          { name: 'used_at', type: t.timestamp, isNullable: true },
          { name: 'created_at', type: t.timestamp, default: t.now },
        ],
        foreignKeys: [
          {
            columnNames: ['session_id'],
            referencedTableName: 'auth_sessions',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [{ columnNames: ['session_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'usage_records',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'auth_method', type: 'varchar', length: '8' },
          { name: 'api_key_id', type: t.id, length: '36', isNullable: true },
          { name: 'user_id', type: t.id, length: '36', isNullable: true },
          { name: 'method', type: 'varchar', length: '8' },
          { name: 'route', type: 'varchar', length: '200' },
          { name: 'status_code', type: 'integer' },
          { name: 'code', type: 'varchar', length: '64', isNullable: true },
          { name: 'latency_ms', type: 'integer' },
          { name: 'created_at', type: t.timestamp },
        ],
        // No foreign key: an append-only ledger whose batch inserts must never fail on one row.
        indices: [{ columnNames: ['account_id', 'created_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('usage_records');
    await queryRunner.dropTable('refresh_tokens');
    await queryRunner.dropTable('auth_sessions');
    await queryRunner.dropTable('api_keys');
  }
}
