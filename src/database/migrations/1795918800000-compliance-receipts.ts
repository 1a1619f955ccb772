import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 56: compliance receipts (the JWS as issued, the execution once mined), the public keys
 * they were signed with (kept for good: the JWKS), and the receipts' view of each wallet's
 * session opening. The keyset indexes make every listing and the export a range scan.
 */
export class ComplianceReceipts1795918800000 implements MigrationInterface {
  name = 'ComplianceReceipts1795918800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'compliance_receipts',
        columns: [
          {
            name: 'seq',
            type: t.bigint,
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'id', type: 'varchar', length: '36', isUnique: true },
          { name: 'account_id', type: 'varchar', length: '36' },
          { name: 'wallet', type: 'varchar', length: '42' },
          { name: 'operation', type: 'varchar', length: '16' },
          { name: 'issued_ms', type: t.bigint },
          { name: 'call_key', type: 'varchar', length: '64' },
          { name: 'block_number', type: t.bigint },
          { name: 'deadline', type: t.bigint },
          { name: 'jws', type: 'text' },
          { name: 'execution_state', type: 'varchar', length: '16' },
          { name: 'tx_hash', type: 'varchar', length: '66', isNullable: true },
          { name: 'execution', type: 'text', isNullable: true },
          { name: 'execution_jws', type: 'text', isNullable: true },
        ],
        indices: [
          {
            name: 'IDX_compliance_receipts_account',
            columnNames: ['account_id', 'issued_ms', 'seq'],
          },
          {
            name: 'IDX_compliance_receipts_wallet',
            columnNames: ['account_id', 'wallet', 'issued_ms', 'seq'],
          },
          { name: 'IDX_compliance_receipts_call', columnNames: ['call_key'] },
          {
            name: 'IDX_compliance_receipts_watch',
            columnNames: ['execution_state', 'block_number'],
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'receipt_signing_keys',
        columns: [
          { name: 'kid', type: 'varchar', length: '64', isPrimary: true },
          { name: 'public_jwk', type: 'text' },
          { name: 'first_used_ms', type: t.bigint },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'receipt_session_openings',
        columns: [
          { name: 'wallet_address', type: 'varchar', length: '42', isPrimary: true },
          { name: 'account_id', type: 'varchar', length: '36' },
          { name: 'active_until', type: t.bigint },
          { name: 'via', type: 'varchar', length: '16' },
          { name: 'source', type: 'text', isNullable: true },
          { name: 'tx_hash', type: 'varchar', length: '66', isNullable: true },
          { name: 'block_number', type: t.bigint, isNullable: true },
          { name: 'policy', type: 'text' },
          { name: 'policy_version', type: 'integer', isNullable: true },
        ],
      }),
    );
    // The relay remembers which receipt a relayed transaction answers (transaction.confirmed).
    await queryRunner.query('ALTER TABLE relayed_transactions ADD COLUMN receipt_id varchar(36)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE relayed_transactions DROP COLUMN receipt_id');
    await queryRunner.dropTable('receipt_session_openings');
    await queryRunner.dropTable('receipt_signing_keys');
    await queryRunner.dropTable('compliance_receipts');
  }
}
