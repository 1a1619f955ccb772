import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { msOrNull } from '../webhook-endpoint.entity';

/** One HTTP attempt of a delivery, as the deliveries list shows it. */
@Entity('webhook_attempts')
export class WebhookAttempt {
  @PrimaryGeneratedColumn('increment')
  id: number;

  @Index()
  @Column({ name: 'delivery_id', type: 'varchar', length: 36 })
  deliveryId: string;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column({ type: 'varchar', length: 300, nullable: true })
  error: string | null;

  @Column({ name: 'attempted_ms', type: 'bigint', transformer: msOrNull() })
  attemptedMs: number;
}
