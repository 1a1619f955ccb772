import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 41: which EAS attestation opened which session (wallet + activeUntil), so the screening
 * watcher can end a session whose attestation was revoked since ("attestation_revoked").
 */
export class AttestationSessions1764480000000 implements MigrationInterface {
  name = 'AttestationSessions1764480000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'attestation_sessions',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'wallet_address', type: 'varchar', length: '42' },
          { name: 'session_until', type: t.bigint },
          { name: 'source', type: 'varchar', length: '64' },
          { name: 'uid', type: 'varchar', length: '66' },
          { name: 'created_at', type: t.timestamp, default: t.now },
        ],
        indices: [{ columnNames: ['wallet_address', 'session_until'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('attestation_sessions');
  }
}
