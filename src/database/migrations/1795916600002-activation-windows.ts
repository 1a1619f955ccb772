import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/** Issue 52: activation transactions per wallet in its current window (ActivationThrottle). */
export class ActivationWindows1795916600002 implements MigrationInterface {
  name = 'ActivationWindows1795916600002';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'activation_windows',
        columns: [
          { name: 'wallet_address', type: 'varchar', length: '42', isPrimary: true },
          { name: 'window_started_at', type: t.bigint },
          { name: 'sends', type: 'integer' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('activation_windows');
  }
}
