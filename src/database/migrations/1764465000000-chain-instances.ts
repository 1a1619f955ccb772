import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 47: the chain instance (genesis block hash) the database's chain-bound rows belong to, so
 * that a new one (the embedded devnet after a restart) is recognised and those rows cleared.
 */
export class ChainInstances1764465000000 implements MigrationInterface {
  name = 'ChainInstances1764465000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'chain_instances',
        columns: [
          { name: 'chain_id', type: 'integer', isPrimary: true },
          { name: 'genesis_hash', type: 'varchar', length: '66' },
          { name: 'since', type: t.timestamp },
          { name: 'previous_genesis_hash', type: 'varchar', length: '66', isNullable: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('chain_instances');
  }
}
