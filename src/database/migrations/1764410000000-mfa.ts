import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 33: TOTP two-factor sign-in (one row per user: the encrypted secret, pending until the
 * first code confirms it; the last time step used, so a code works once), its recovery codes
 * (HMAC-SHA-256 only), the accounts' security settings (MFA required for every member), and
 * each user's wrong codes in the current lockout window (MfaLockout).
 */
export class Mfa1764410000000 implements MigrationInterface {
  name = 'Mfa1764410000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'user_totp',
        columns: [
          { name: 'user_id', type: t.id, length: '36', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'secret_encrypted', type: 'varchar', length: '255' },
          { name: 'enabled_at', type: t.timestamp, isNullable: true },
          { name: 'last_used_step', type: t.bigint, isNullable: true },
          { name: 'created_at', type: t.timestamp, default: t.now },
        ],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'mfa_recovery_codes',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'user_id', type: t.id, length: '36' },
          { name: 'code_hash', type: 'varchar', length: '64' },
          { name: 'used_at', type: t.timestamp, isNullable: true },
          { name: 'created_at', type: t.timestamp, default: t.now },
        ],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [{ columnNames: ['user_id', 'code_hash'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'account_security',
        columns: [
          { name: 'account_id', type: t.id, length: '36', isPrimary: true },
          { name: 'mfa_required', type: 'boolean', default: false },
          { name: 'updated_at', type: t.timestamp, default: t.now },
        ],
        foreignKeys: [
          {
            columnNames: ['account_id'],
            referencedTableName: 'accounts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'mfa_failures',
        columns: [
          { name: 'user_id', type: t.id, length: '36', isPrimary: true },
          { name: 'failures', type: 'integer' },
          { name: 'window_started_at', type: t.timestamp },
        ],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('mfa_failures');
    await queryRunner.dropTable('account_security');
    await queryRunner.dropTable('mfa_recovery_codes');
    await queryRunner.dropTable('user_totp');
  }
}
