import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 32: webhook endpoints, the outbox (events, deliveries, attempts), the sessions watched for
 * session.expiring, the relayed transactions watched for transaction.*, and the once-a-month
 * quota.threshold marks. Instants the dispatcher compares are unix ms integers (same on both engines).
 */
export class Webhooks1764430000000 implements MigrationInterface {
  name = 'Webhooks1764430000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    const created = { name: 'created_at', type: t.timestamp, default: t.now };
    await queryRunner.createTable(
      new Table({
        name: 'webhook_endpoints',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'url', type: 'varchar', length: '2048' },
          { name: 'description', type: 'varchar', length: '200', isNullable: true },
          { name: 'events', type: 'text' },
          { name: 'active', type: 'boolean' },
          { name: 'secret_sealed', type: 'varchar', length: '300' },
          { name: 'previous_secret_sealed', type: 'varchar', length: '300', isNullable: true },
          { name: 'previous_secret_until', type: t.bigint, isNullable: true },
          { name: 'failing_since', type: t.bigint, isNullable: true },
          { name: 'disabled_reason', type: 'varchar', length: '200', isNullable: true },
          created,
          { name: 'updated_at', type: t.timestamp, default: t.now },
        ],
        indices: [{ name: 'IDX_webhook_endpoints_account', columnNames: ['account_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_events',
        columns: [
          { name: 'id', type: 'varchar', length: '40', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'type', type: 'varchar', length: '64' },
          { name: 'payload', type: 'text' },
          { name: 'created_ms', type: t.bigint },
        ],
        indices: [{ name: 'IDX_webhook_events_account', columnNames: ['account_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          { name: 'id', type: t.id, length: '36', isPrimary: true },
          { name: 'endpoint_id', type: t.id, length: '36' },
          { name: 'event_id', type: 'varchar', length: '40' },
          { name: 'event_type', type: 'varchar', length: '64' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'attempts', type: 'integer' },
          { name: 'next_attempt_ms', type: t.bigint, isNullable: true },
          { name: 'lease_until_ms', type: t.bigint, isNullable: true },
          { name: 'last_status_code', type: 'integer', isNullable: true },
          { name: 'last_error', type: 'varchar', length: '300', isNullable: true },
          { name: 'created_ms', type: t.bigint },
          { name: 'delivered_ms', type: t.bigint, isNullable: true },
        ],
        indices: [
          { name: 'IDX_webhook_deliveries_due', columnNames: ['status', 'next_attempt_ms'] },
          { name: 'IDX_webhook_deliveries_endpoint', columnNames: ['endpoint_id', 'created_ms'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_attempts',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'delivery_id', type: t.id, length: '36' },
          { name: 'attempt', type: 'integer' },
          { name: 'status_code', type: 'integer', isNullable: true },
          { name: 'duration_ms', type: 'integer' },
          { name: 'error', type: 'varchar', length: '300', isNullable: true },
          { name: 'attempted_ms', type: t.bigint },
        ],
        indices: [{ name: 'IDX_webhook_attempts_delivery', columnNames: ['delivery_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'watched_sessions',
        columns: [
          { name: 'wallet_address', type: 'varchar', length: '42', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'active_until', type: t.bigint },
          { name: 'expiring_sent_ms', type: t.bigint, isNullable: true },
        ],
        indices: [{ name: 'IDX_watched_sessions_active_until', columnNames: ['active_until'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'relayed_transactions',
        columns: [
          { name: 'tx_hash', type: 'varchar', length: '66', isPrimary: true },
          { name: 'account_id', type: t.id, length: '36' },
          { name: 'api_key_id', type: t.id, length: '36', isNullable: true },
          { name: 'from_address', type: 'varchar', length: '42' },
          { name: 'kind', type: 'varchar', length: '32' },
          { name: 'state', type: 'varchar', length: '16' },
          { name: 'relayed_ms', type: t.bigint },
          { name: 'settled_ms', type: t.bigint, isNullable: true },
        ],
        indices: [{ name: 'IDX_relayed_transactions_state', columnNames: ['state', 'relayed_ms'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'quota_threshold_marks',
        columns: [
          { name: 'account_id', type: t.id, length: '36', isPrimary: true },
          { name: 'month', type: 'varchar', length: '7', isPrimary: true },
          { name: 'percent', type: 'integer', isPrimary: true },
          created,
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'quota_threshold_marks',
      'relayed_transactions',
      'watched_sessions',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_events',
      'webhook_endpoints',
    ])
      await queryRunner.dropTable(table);
  }
}
