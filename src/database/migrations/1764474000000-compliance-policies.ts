import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/** Issue 40: each account's compliance policy (sources, countries, shortest session). */
export class CompliancePolicies1764474000000 implements MigrationInterface {
  name = 'CompliancePolicies1764474000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'compliance_policies',
        columns: [
          { name: 'account_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'rules', type: t.json },
          { name: 'updated_at', type: t.timestamp },
          { name: 'updated_by', type: 'varchar', length: '64', isNullable: true },
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
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('compliance_policies');
  }
}
