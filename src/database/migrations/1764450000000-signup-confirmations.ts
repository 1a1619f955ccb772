import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 46: a sign-up opens its account only once the link mailed to the address is followed.
 * Until then it is a row here (the password already hashed with argon2id, the token as SHA-256)
 * that blocks nobody: one email may have several, and the first confirmed wins.
 */
export class SignupConfirmations1764450000000 implements MigrationInterface {
  name = 'SignupConfirmations1764450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'signup_confirmations',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'email', type: 'varchar', length: '320' },
          { name: 'account_name', type: 'varchar', length: '200' },
          { name: 'password_hash', type: 'varchar', length: '255' },
          { name: 'token_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'expires_at', type: t.timestamp },
          { name: 'confirmed_at', type: t.timestamp, isNullable: true },
          { name: 'created_at', type: t.timestamp, default: t.now },
        ],
        indices: [{ name: 'IDX_signup_confirmations_expiry', columnNames: ['expires_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('signup_confirmations');
  }
}
