import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 58: the session revocations the service owes, durable until mined
 * (src/compliance/sessions/owed-revocation.entity.ts). The partial unique index keeps one pending
 * revocation per wallet across replicas (SQLite and PostgreSQL both have partial indexes).
 */
export class ComplianceRevocations1795909100000 implements MigrationInterface {
  name = 'ComplianceRevocations1795909100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'compliance_revocations',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'wallet_address', type: 'varchar', length: '42' },
          { name: 'reason', type: 'varchar', length: '32' },
          { name: 'actor_type', type: 'varchar', length: '16' },
          { name: 'actor_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'requested_at', type: t.timestamp },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'last_attempt_at', type: t.timestamp, isNullable: true },
          { name: 'last_error', type: 'varchar', length: '300', isNullable: true },
          { name: 'tx_hash', type: 'varchar', length: '66', isNullable: true },
          { name: 'mined_by', type: 'varchar', length: '42', isNullable: true },
          { name: 'mined_at', type: t.timestamp, isNullable: true },
        ],
        indices: [
          { columnNames: ['status', 'requested_at'] },
          {
            name: 'UQ_compliance_revocations_pending_wallet',
            columnNames: ['wallet_address'],
            isUnique: true,
            where: "status = 'pending'",
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('compliance_revocations');
  }
}
