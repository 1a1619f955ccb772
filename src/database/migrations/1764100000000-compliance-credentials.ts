import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 18: single-use verify challenges (replaces the per-credential nullifier guard: a
 * credential now renews its session as often as its holder proves afresh), the credential roots
 * the verifier accepts, and the demo issuer's credential tree.
 */
export class ComplianceCredentials1764100000000 implements MigrationInterface {
  name = 'ComplianceCredentials1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'verify_challenges',
        columns: [
          { name: 'challenge', type: 'varchar', length: '80', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'wallet_address', type: 'varchar', length: '42' },
          { name: 'expires_at', type: t.bigint },
          { name: 'used_at', type: t.bigint, isNullable: true },
          { name: 'nullifier', type: 'varchar', length: '80', isNullable: true },
          { name: 'session_until', type: t.bigint, isNullable: true },
        ],
        foreignKeys: [
          {
            columnNames: ['account_id'],
            referencedTableName: 'accounts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [{ columnNames: ['nullifier'] }, { columnNames: ['wallet_address'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'credential_roots',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'root', type: 'varchar', length: '80' },
          { name: 'retires_previous', type: 'boolean', default: false },
          { name: 'created_at', type: t.timestamp, default: t.now },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'issued_credentials',
        columns: [
          { name: 'leaf_index', type: 'integer', isPrimary: true },
          { name: 'wallet_address', type: 'varchar', length: '42' },
          { name: 'leaf', type: 'varchar', length: '80' },
          { name: 'nullifier', type: 'varchar', length: '80' },
          { name: 'expires_at', type: t.bigint },
          { name: 'revoked_at', type: t.timestamp, isNullable: true },
          { name: 'issued_at', type: t.timestamp, default: t.now },
        ],
        indices: [{ columnNames: ['wallet_address'] }],
      }),
    );
    await queryRunner.dropTable('proof_nullifiers');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'proof_nullifiers',
        columns: [
          { name: 'nullifier', type: 'varchar', length: '80', isPrimary: true },
          { name: 'wallet_address', type: 'varchar', length: '42' },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'used_at', type: t.timestamp, default: t.now },
        ],
        indices: [{ columnNames: ['wallet_address'] }],
      }),
    );
    await queryRunner.dropTable('issued_credentials');
    await queryRunner.dropTable('credential_roots');
    await queryRunner.dropTable('verify_challenges');
  }
}
