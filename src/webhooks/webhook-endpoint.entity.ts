import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

const eventList = {
  to: (value: string[]) => JSON.stringify(value),
  from: (value: string) => JSON.parse(value) as string[],
};

/** A URL of an account that receives signed events of the types it subscribed to. */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Index()
  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  description: string | null;

  /** Subscribed event types, a JSON array. */
  @Column({ type: 'text', transformer: eventList })
  events: string[];

  @Column({ type: 'boolean' })
  active: boolean;

  /** The signing secret, encrypted (secret-box.ts): it must be recoverable to sign. */
  @Column({ name: 'secret_sealed', type: 'varchar', length: 300 })
  secretSealed: string;

  /** After a rotation, the old secret signs alongside until previousSecretUntil. */
  @Column({ name: 'previous_secret_sealed', type: 'varchar', length: 300, nullable: true })
  previousSecretSealed: string | null;

  @Column({
    name: 'previous_secret_until',
    type: 'bigint',
    nullable: true,
    transformer: msOrNull(),
  })
  previousSecretUntil: number | null;

  /** Unix ms of the first failure since the last success; null while healthy. */
  @Column({ name: 'failing_since', type: 'bigint', nullable: true, transformer: msOrNull() })
  failingSince: number | null;

  /** Why it is inactive when the service (not a user) turned it off. */
  @Column({ name: 'disabled_reason', type: 'varchar', length: 200, nullable: true })
  disabledReason: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt: Date;
}

export function msOrNull() {
  return {
    to: (value: number | null) => value,
    from: (value: string | number | null) => (value === null ? null : Number(value)),
  };
}
