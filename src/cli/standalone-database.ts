/**
 * The database of a standalone command (one that runs without the app: `migrate`, and the operator
 * audit of `sanctions`, `attester fund`, `attester keygen`): the service's database settings only
 * (DATABASE_URL, DATABASE_SCHEMA, DATA_DIR or SQLITE_PATH), opened for the command and closed after.
 * TypeORM is loaded here, on first use: the other standalone commands never pay for it.
 */
import type { DataSource } from 'typeorm';
import type { OperatorChange } from '../audit/operator-audit';

/* eslint-disable @typescript-eslint/no-require-imports */
export async function withStandaloneDatabase<T>(
  what: string,
  run: (dataSource: DataSource, where: string) => Promise<T>,
): Promise<T> {
  const { DataSource } = require('typeorm') as typeof import('typeorm');
  const { databaseConfig } =
    require('../config/database.config') as typeof import('../config/database.config');
  const { buildDataSourceOptions } =
    require('../database/data-source-options') as typeof import('../database/data-source-options');
  const config = databaseConfig();
  const dataSource = await new DataSource(buildDataSourceOptions(config))
    .initialize()
    .catch((err: unknown) => {
      throw new Error(`${what}: cannot open the database: ${(err as Error).message}`);
    });
  const where =
    config.type === 'postgres'
      ? `PostgreSQL${config.schema ? ` schema ${config.schema}` : ''}`
      : config.path;
  try {
    return await run(dataSource, where);
  } finally {
    await dataSource.destroy();
  }
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** Records an operator change; resolves to a warning to print when it could not be recorded. */
export type OperatorAuditWriter = (change: OperatorChange) => Promise<string | undefined>;

/**
 * The standalone commands' operator audit: the change is written to the service's database
 * (operator_events). It is made on chain before it is recorded: a database that cannot take it
 * does not undo it, so the command still succeeds and says on stderr that it is not on the record.
 */
export const standaloneOperatorAudit: OperatorAuditWriter = async (change) => {
  try {
    const { recordOperatorChange } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('../audit/operator-audit') as typeof import('../audit/operator-audit');
    await withStandaloneDatabase('operator audit', (dataSource) =>
      recordOperatorChange(dataSource, change),
    );
    return undefined;
  } catch (error) {
    return `WARNING: ${change.type} is done but NOT recorded in the operator audit (${(error as Error).message.split('\n')[0]}): run the command with the service's database settings (DATABASE_URL, or DATA_DIR), after npm run migrate`;
  }
};
