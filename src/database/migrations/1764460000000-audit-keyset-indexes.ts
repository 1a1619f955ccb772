import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Issue 47: the audit trail's filters stay flat as history grows. The listing is now ordered by
 * (at, seq) and every filter is an equality prefix of one of these indexes followed by (at, seq),
 * so a page, a cursor, a from/to window and `after` are each one index range scan that stops after
 * `limit + 1` rows. Before, with only (account_id, seq), a rare type or a window far back scanned
 * the account's history backwards (EXPLAIN ANALYZE and figures: bench/README.md, "Audit trail").
 */
const INDEXES = [
  new TableIndex({ name: 'IDX_audit_events_account_at', columnNames: ['account_id', 'at', 'seq'] }),
  new TableIndex({
    name: 'IDX_audit_events_account_type_at',
    columnNames: ['account_id', 'type', 'at', 'seq'],
  }),
  new TableIndex({
    name: 'IDX_audit_events_account_actor_at',
    columnNames: ['account_id', 'actor_id', 'at', 'seq'],
  }),
  new TableIndex({
    name: 'IDX_audit_events_account_actor_type_at',
    columnNames: ['account_id', 'actor_type', 'at', 'seq'],
  }),
];

export class AuditKeysetIndexes1764460000000 implements MigrationInterface {
  name = 'AuditKeysetIndexes1764460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const index of INDEXES) await queryRunner.createIndex('audit_events', index);
    // Superseded by IDX_audit_events_account_at (the listing no longer orders by seq alone).
    await queryRunner.dropIndex('audit_events', 'IDX_audit_events_account_seq');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'audit_events',
      new TableIndex({ name: 'IDX_audit_events_account_seq', columnNames: ['account_id', 'seq'] }),
    );
    for (const index of INDEXES) await queryRunner.dropIndex('audit_events', index.name!);
  }
}
