import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

const TABLE = 'idempotency_keys';
const BY_ACCOUNT = ['account_id', 'idempotency_key'];
const BY_CALLER = ['account_id', 'caller', 'idempotency_key'];

/**
 * Idempotency-Key records belong to the caller (user or API key) that made the request, not to
 * the whole account: another member replaying a key and body got the first caller's stored
 * response (a new API key's secret included). Records from before name no caller and cannot be
 * scoped, so they are dropped (they lived 24 h at most): a retry of a request sent just before
 * the upgrade runs again instead of replaying.
 */
export class IdempotencyCaller1764440000000 implements MigrationInterface {
  name = 'IdempotencyCaller1764440000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await dropUniqueIndex(queryRunner, BY_ACCOUNT);
    await queryRunner.query(`DELETE FROM ${TABLE}`);
    await queryRunner.addColumn(
      TABLE,
      new TableColumn({ name: 'caller', type: 'varchar', length: '64' }),
    );
    await queryRunner.createIndex(
      TABLE,
      new TableIndex({ columnNames: BY_CALLER, isUnique: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropUniqueIndex(queryRunner, BY_CALLER);
    // Two callers may hold the same key: the account-wide index cannot take both.
    await queryRunner.query(`DELETE FROM ${TABLE}`);
    await queryRunner.dropColumn(TABLE, 'caller');
    await queryRunner.createIndex(
      TABLE,
      new TableIndex({ columnNames: BY_ACCOUNT, isUnique: true }),
    );
  }
}

async function dropUniqueIndex(queryRunner: QueryRunner, columns: string[]): Promise<void> {
  const table = await queryRunner.getTable(TABLE);
  const index = table?.indices.find(
    (candidate) => candidate.isUnique && candidate.columnNames.join(',') === columns.join(','),
  );
  if (index) await queryRunner.dropIndex(TABLE, index);
}
