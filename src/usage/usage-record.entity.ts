import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One request to a protected endpoint, written in batches by UsageRecorder together with its
 * roll-ups. Kept USAGE_RAW_RETENTION_DAYS (audits); stats read the roll-ups.
 */
@Entity('usage_records')
@Index('IDX_usage_records_created_at', ['createdAt'])
export class UsageRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @Column({ name: 'auth_method', type: 'varchar', length: 8 })
  authMethod: string;

  @Column({ name: 'api_key_id', type: 'varchar', length: 36, nullable: true })
  apiKeyId: string | null;

  @Column({ name: 'user_id', type: 'varchar', length: 36, nullable: true })
  userId: string | null;

  @Column({ type: 'varchar', length: 8 })
  method: string;

  /** The route pattern (`/api/v1/api-keys/:id`), never the concrete path. */
  @Column({ type: 'varchar', length: 200 })
  route: string;

  @Column({ name: 'status_code', type: 'integer' })
  statusCode: number;

  /** The error code of a failed request (null on success). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  code: string | null;

  @Column({ name: 'latency_ms', type: 'integer' })
  latencyMs: number;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}
