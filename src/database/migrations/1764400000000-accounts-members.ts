import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 33: members of an account have a role (existing users become their account's owner; one
 * owner per account, a partial unique index) and are invited with single-use tokens (only their
 * SHA-256 is stored).
 */
export class AccountsMembers1764400000000 implements MigrationInterface {
  name = 'AccountsMembers1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    // The column default is the least powerful role; every user so far created an account.
    await queryRunner.addColumn(
      'users',
      new TableColumn({ name: 'role', type: 'varchar', length: '16', default: "'viewer'" }),
    );
    await queryRunner.query(`UPDATE users SET role = 'owner'`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_users_one_owner" ON users (account_id) WHERE role = 'owner'`,
    );
    await queryRunner.createTable(
      new Table({
        name: 'invitations',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'email', type: 'varchar', length: '320' },
          { name: 'role', type: 'varchar', length: '16' },
          { name: 'token_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'invited_by_user_id', type: t.id, length: '36', isNullable: true },
          { name: 'expires_at', type: t.timestamp },
          { name: 'accepted_at', type: t.timestamp, isNullable: true },
          { name: 'accepted_user_id', type: t.id, length: '36', isNullable: true },
          { name: 'revoked_at', type: t.timestamp, isNullable: true },
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
        indices: [{ name: 'IDX_invitations_account', columnNames: ['account_id', 'created_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('invitations');
    await queryRunner.query('DROP INDEX "UQ_users_one_owner"');
    await queryRunner.dropColumn('users', 'role');
  }
}
