import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { msOrNull } from '../webhook-endpoint.entity';

/**
 * One event of the outbox, written in the transaction of the change that caused it. `payload` is
 * the exact JSON body every delivery of it sends, so retries and crash duplicates are identical.
 */
@Entity('webhook_events')
export class WebhookEvent {
  /** Also the `webhook-id` header (msg_...): receivers dedupe on it. */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Index()
  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ type: 'text' })
  payload: string;

  @Column({ name: 'created_ms', type: 'bigint', transformer: msOrNull() })
  createdMs: number;
}
