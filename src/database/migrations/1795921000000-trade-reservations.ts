import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 54: the daily-limit ledger of the trade rules, one row per token a build gives
 * (reserved, then mined or expired). The account index serves the sum taken under the
 * account's lock; the due index the sweep of reservations past their deadline.
 */
export class TradeReservations1795921000000 implements MigrationInterface {
  name = 'TradeReservations1795921000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'trade_reservations',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'build_id', type: 'varchar', length: '36' },
          { name: 'account_id', type: 'varchar', length: '36' },
          { name: 'wallet', type: 'varchar', length: '42' },
          { name: 'token', type: 'varchar', length: '16' },
          { name: 'amount', type: 'varchar', length: '80' },
          { name: 'deadline', type: t.bigint },
          { name: 'nonce', type: 'varchar', length: '80', isNullable: true },
          { name: 'authorization_id', type: 'varchar', length: '80', isNullable: true },
          { name: 'receipt_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'created_ms', type: t.bigint },
          { name: 'mined_ms', type: t.bigint, isNullable: true },
        ],
        indices: [
          {
            name: 'IDX_trade_reservations_account',
            columnNames: ['account_id', 'token', 'status'],
          },
          { name: 'IDX_trade_reservations_receipt', columnNames: ['receipt_id'] },
          { name: 'IDX_trade_reservations_due', columnNames: ['status', 'deadline'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('trade_reservations');
  }
}
