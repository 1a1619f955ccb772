import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** An institution: it owns users, API keys and wallets, and carries the rate-limit plan. */
@Entity('accounts')
export class Account {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 32, default: 'free' })
  plan: Plan;

  /** An operator's override of the plan's requests per minute. */
  @Column({ name: 'rate_limit_per_minute', type: 'integer', nullable: true })
  rateLimitPerMinute: number | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
