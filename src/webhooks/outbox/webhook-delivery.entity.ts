import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { msOrNull } from '../webhook-endpoint.entity';

/**
 * pending: due at nextAttemptMs (claimed while leaseUntilMs is in the future); delivered: a 2xx;
 * failed: every attempt of the schedule failed, or the endpoint was disabled or deleted;
 * notice: a row the service adds to the list without sending it (webhook.disabled).
 */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'notice';

/** One event to one endpoint, and where its retries stand. */
@Entity('webhook_deliveries')
@Index('IDX_webhook_deliveries_due', ['status', 'nextAttemptMs'])
@Index('IDX_webhook_deliveries_endpoint', ['endpointId', 'createdMs'])
export class WebhookDelivery {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'endpoint_id', type: 'varchar', length: 36 })
  endpointId: string;

  @Column({ name: 'event_id', type: 'varchar', length: 40 })
  eventId: string;

  @Column({ name: 'event_type', type: 'varchar', length: 64 })
  eventType: string;

  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'next_attempt_ms', type: 'bigint', nullable: true, transformer: msOrNull() })
  nextAttemptMs: number | null;

  @Column({ name: 'lease_until_ms', type: 'bigint', nullable: true, transformer: msOrNull() })
  leaseUntilMs: number | null;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 300, nullable: true })
  lastError: string | null;

  @Column({ name: 'created_ms', type: 'bigint', transformer: msOrNull() })
  createdMs: number;

  @Column({ name: 'delivered_ms', type: 'bigint', nullable: true, transformer: msOrNull() })
  deliveredMs: number | null;
}
