import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 55: approval requests (the trade asked for above a threshold, its fingerprint, the rules
 * it was opened under, its status) and the members' votes on them (one per member per request).
 */
export class Approvals1795921844000 implements MigrationInterface {
  name = 'Approvals1795921844000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'approval_requests',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'account_id', type: 'varchar', length: '36' },
          { name: 'wallet', type: 'varchar', length: '42' },
          { name: 'operation', type: 'varchar', length: '16' },
          { name: 'requested_by_type', type: 'varchar', length: '8' },
          { name: 'requested_by_id', type: 'varchar', length: '36' },
          { name: 'requester_user_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'fingerprint', type: 'varchar', length: '64' },
          { name: 'request', type: 'text' },
          { name: 'gives', type: 'text' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'quorum', type: 'integer' },
          { name: 'roles', type: 'text' },
          { name: 'policy_version', type: 'integer' },
          { name: 'created_ms', type: t.bigint },
          { name: 'expires_ms', type: t.bigint },
          { name: 'decided_ms', type: t.bigint, isNullable: true },
          { name: 'used_ms', type: t.bigint, isNullable: true },
        ],
        indices: [
          {
            name: 'IDX_approval_requests_account',
            columnNames: ['account_id', 'status', 'created_ms'],
          },
          { name: 'IDX_approval_requests_expiry', columnNames: ['status', 'expires_ms'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'approval_votes',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'request_id', type: 'varchar', length: '36' },
          { name: 'user_id', type: 'varchar', length: '36' },
          { name: 'role', type: 'varchar', length: '16' },
          { name: 'decision', type: 'varchar', length: '8' },
          { name: 'reason', type: 'varchar', length: '500', isNullable: true },
          { name: 'second_factor', type: 'varchar', length: '16', isNullable: true },
          { name: 'created_ms', type: t.bigint },
        ],
        indices: [
          {
            name: 'UQ_approval_votes_member',
            columnNames: ['request_id', 'user_id'],
            isUnique: true,
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('approval_votes');
    await queryRunner.dropTable('approval_requests');
  }
}
