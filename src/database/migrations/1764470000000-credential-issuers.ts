import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 40: credential issuers the operator registers (name, Baby Jubjub keys with validity dates,
 * revocation), and which issuer's credential opened each session (verify_challenges.issuer_name).
 */
export class CredentialIssuers1764470000000 implements MigrationInterface {
  name = 'CredentialIssuers1764470000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'credential_issuers',
        columns: [
          { name: 'name', type: 'varchar', length: '64', isPrimary: true },
          { name: 'revoked_at', type: t.bigint, isNullable: true },
          { name: 'created_at', type: t.timestamp, default: t.now },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'credential_issuer_keys',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'issuer_name', type: 'varchar', length: '64' },
          { name: 'x', type: 'varchar', length: '80' },
          { name: 'y', type: 'varchar', length: '80' },
          { name: 'valid_from', type: t.bigint },
          { name: 'valid_until', type: t.bigint, isNullable: true },
          { name: 'retired_at', type: t.bigint, isNullable: true },
        ],
        foreignKeys: [
          {
            columnNames: ['issuer_name'],
            referencedTableName: 'credential_issuers',
            referencedColumnNames: ['name'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [{ columnNames: ['issuer_name'] }, { columnNames: ['x', 'y'], isUnique: true }],
      }),
    );
    await queryRunner.addColumn(
      'verify_challenges',
      new TableColumn({ name: 'issuer_name', type: 'varchar', length: '64', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('verify_challenges', 'issuer_name');
    await queryRunner.dropTable('credential_issuer_keys');
    await queryRunner.dropTable('credential_issuers');
  }
}
