import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Issue 53: a policy's version, 1 on its first PUT and one more on each; the rows written before
 * have been set once at least, so they start at 1.
 */
export class CompliancePolicyVersion1795916600001 implements MigrationInterface {
  name = 'CompliancePolicyVersion1795916600001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'compliance_policies',
      new TableColumn({ name: 'version', type: 'integer', isNullable: false, default: 1 }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('compliance_policies', 'version');
  }
}
