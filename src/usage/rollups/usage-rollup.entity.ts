import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { RequestDimensions } from '../request-dimensions';

const bigintNumber = {
  to: (value: number) => value,
  from: (value: string | number) => Number(value),
};

/**
 * Requests of one account in one time bucket (a minute or an hour) with one set of dimensions.
 * Maintained by UsageRollupsService in the same transaction as the raw rows; stats read only these.
 * Nullable dimensions are stored as '' (a unique index, the upsert's target, never matches NULL).
 */
@Entity('usage_rollups')
@Index(
  'UQ_usage_rollups_bucket',
  [
    'accountId',
    'spanMinutes',
    'bucketMinute',
    'authMethod',
    'apiKeyId',
    'userId',
    'method',
    'route',
    'statusCode',
    'code',
  ],
  { unique: true },
)
export class UsageRollup extends RequestDimensions {
  @PrimaryGeneratedColumn('increment')
  id: number;

  /** 1 (minute bucket) or 60 (hour bucket). */
  @Column({ name: 'span_minutes', type: 'integer' })
  spanMinutes: number;

  /**
   * Start of the bucket in Unix minutes (epoch ms / 60 000). Retention's index is on
   * `(bucket_minute + 0)` (migration 1764100000000), which the stats reads cannot pick.
   */
  @Column({ name: 'bucket_minute', type: 'integer' })
  bucketMinute: number;

  @Column({ name: 'api_key_id', type: 'varchar', length: 36 })
  apiKeyId: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ type: 'varchar', length: 64 })
  code: string;

  @Column({ type: 'integer' })
  requests: number;

  @Column({ name: 'latency_sum_ms', type: 'bigint', transformer: bigintNumber })
  latencySumMs: number;

  @Column({ name: 'latency_max_ms', type: 'integer' })
  latencyMaxMs: number;

  /** Epoch ms of the bucket's latest request (stats' lastRequestAt). */
  @Column({ name: 'last_request_ms', type: 'bigint', transformer: bigintNumber })
  lastRequestMs: number;
}
