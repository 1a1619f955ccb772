import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/** SIWE nonces (single use, account-bound) and used ZK proof nullifiers (replay guard). */
export class ComplianceOnboarding1763960000000 implements MigrationInterface {
  name = 'ComplianceOnboarding1763960000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'siwe_nonces',
        columns: [
          { name: 'nonce_hash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'expires_at', type: t.bigint },
        ],
        foreignKeys: [
          {
            columnNames: ['account_id'],
            referencedTableName: 'accounts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [{ columnNames: ['expires_at'] }, { columnNames: ['account_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'proof_nullifiers',
        columns: [
          { name: 'nullifier', type: 'varchar', length: '80', isPrimary: true },
          { name: 'wallet_address', type: 'varchar', length: '42' },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'used_at', type: t.timestamp, default: t.now },
        ],
        // No foreign key to accounts: a nullifier stays spent even if its account is deleted.
        indices: [{ columnNames: ['wallet_address'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('proof_nullifiers');
    await queryRunner.dropTable('siwe_nonces');
  }
}
