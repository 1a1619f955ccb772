import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 52: the service's own index of the accepted attesters' EAS attestations (latest per
 * schema, attester and recipient) and how far it has read.
 */
export class AttestationIndex1795916600003 implements MigrationInterface {
  name = 'AttestationIndex1795916600003';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'attestation_index',
        columns: [
          { name: 'schema_uid', type: 'varchar', length: '66', isPrimary: true },
          { name: 'attester', type: 'varchar', length: '42', isPrimary: true },
          { name: 'recipient', type: 'varchar', length: '42', isPrimary: true },
          { name: 'uid', type: 'varchar', length: '66' },
          { name: 'block_number', type: t.bigint },
          { name: 'log_index', type: 'integer' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'attestation_index_state',
        columns: [
          { name: 'name', type: 'varchar', length: '32', isPrimary: true },
          { name: 'fingerprint', type: 'varchar', length: '66' },
          { name: 'next_block', type: t.bigint },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('attestation_index_state');
    await queryRunner.dropTable('attestation_index');
  }
}
