import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { RequestDimensions } from './request-dimensions';

/**
 * One request to a protected endpoint, written in batches by UsageRecorder together with its
 * roll-ups. Kept USAGE_RAW_RETENTION_DAYS (audits); stats read the roll-ups.
 */
@Entity('usage_records')
@Index('IDX_usage_records_created_at', ['createdAt'])
export class UsageRecord extends RequestDimensions {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'api_key_id', type: 'varchar', length: 36, nullable: true })
  apiKeyId: string | null;

  @Column({ name: 'user_id', type: 'varchar', length: 36, nullable: true })
  userId: string | null;

  /** The error code of a failed request (null on success). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  code: string | null;

  @Column({ name: 'latency_ms', type: 'integer' })
  latencyMs: number;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}
