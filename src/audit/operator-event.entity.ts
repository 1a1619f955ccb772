import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { JSON_COLUMN } from './json-column';

/**
 * An operator's change that belongs to no account (issue 58): the issuers POST /verify trusts, the
 * sanctions list, the attester's funding and keys, the service's secrets. Written once by the CLI
 * (or by the service when it starts on a rotated secret), never updated; read with
 * `npm run cli -- audit list`. Changes to an account (create-account, users reset-mfa, set-plan)
 * are in that account's audit trail (audit_events) instead.
 */
@Entity('operator_events')
@Index(['at'])
export class OperatorEvent {
  /** Write order (a bigint: PostgreSQL returns it as a string). */
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq: number | string;

  @Column({ type: 'varchar', length: 36, unique: true })
  id: string;

  @Column({ type: Date })
  at: Date;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  /** `operator` (the CLI), or `system` (the service noticed it, e.g. a rotated secret at start). */
  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType: string;

  @Column({ name: 'actor_id', type: 'varchar', length: 64, nullable: true })
  actorId: string | null;

  @Column({ name: 'target_type', type: 'varchar', length: 32, nullable: true })
  targetType: string | null;

  @Column({ name: 'target_id', type: 'varchar', length: 128, nullable: true })
  targetId: string | null;

  @Column({ type: 'text', nullable: true, transformer: JSON_COLUMN })
  data: Record<string, unknown> | null;
}
