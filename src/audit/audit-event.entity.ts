import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { JSON_COLUMN } from './json-column';

/** One audited action of an account; written once by the audit sink, never updated. */
@Entity('audit_events')
export class AuditEvent {
  /** Write order: the cursor of the listing (a bigint: PostgreSQL returns it as a string). */
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq: number | string;

  @Column({ type: 'varchar', length: 36, unique: true })
  id: string;

  @Column({ type: Date })
  at: Date;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType: string;

  @Column({ name: 'actor_id', type: 'varchar', length: 64, nullable: true })
  actorId: string | null;

  @Column({ name: 'target_type', type: 'varchar', length: 32, nullable: true })
  targetType: string | null;

  @Column({ name: 'target_id', type: 'varchar', length: 128, nullable: true })
  targetId: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId: string | null;

  @Column({ type: 'text', nullable: true, transformer: JSON_COLUMN })
  data: Record<string, unknown> | null;
}
