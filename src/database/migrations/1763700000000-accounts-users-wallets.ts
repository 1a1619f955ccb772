import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

export class AccountsUsersWallets1763700000000 implements MigrationInterface {
  name = 'AccountsUsersWallets1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'accounts',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'plan', type: 'varchar', length: '32', default: "'free'" },
          { name: 'rate_limit_per_minute', type: 'integer', isNullable: true },
          { name: 'created_at', type: t.timestamp, default: t.now },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'email', type: 'varchar', length: '320', isUnique: true },
          { name: 'password_hash', type: 'varchar', length: '255' },
          { name: 'created_at', type: t.timestamp, default: t.now },
        ],
        foreignKeys: [
          {
            columnNames: ['account_id'],
            referencedTableName: 'accounts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [{ columnNames: ['account_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'wallets',
        columns: [
          { name: 'address', type: 'varchar', length: '42', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'bound_at', type: t.timestamp, default: t.now },
        ],
        foreignKeys: [
          {
            columnNames: ['account_id'],
            referencedTableName: 'accounts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [{ columnNames: ['account_id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('wallets');
    await queryRunner.dropTable('users');
    await queryRunner.dropTable('accounts');
  }
}
