import { Column } from 'typeorm';

/**
 * The dimensions of a request that the raw rows (usage_records) and the roll-ups (usage_rollups)
 * both keep, declared once so the two tables cannot drift apart. The optional dimensions
 * (api key, user, error code) differ: NULL in the raw rows, '' in the roll-ups' unique index.
 */
export abstract class RequestDimensions {
  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @Column({ name: 'auth_method', type: 'varchar', length: 8 })
  authMethod: string;

  @Column({ type: 'varchar', length: 8 })
  method: string;

  /** The route pattern (`/api/v1/api-keys/:id`), never the concrete path. */
  @Column({ type: 'varchar', length: 200 })
  route: string;

  @Column({ name: 'status_code', type: 'integer' })
  statusCode: number;
}
