import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Plan } from './plans';

export { PLANS, type Plan } from './plans';

/** The name column's width. */
export const ACCOUNT_NAME_MAX_LENGTH = 200;

/** An institution: it owns users, API keys and wallets, and carries the plan (rate limit, monthly quota). */
@Entity('accounts')
export class Account {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: ACCOUNT_NAME_MAX_LENGTH })
  name: string;

  @Column({ type: 'varchar', length: 32, default: 'free' })
  plan: Plan;

  /** An operator's override of the plan's requests per minute. */
  @Column({ name: 'rate_limit_per_minute', type: 'integer', nullable: true })
  rateLimitPerMinute: number | null;

  /** An operator's override of the plan's monthly request quota (CLI set-quota). */
  @Column({ name: 'monthly_quota', type: 'integer', nullable: true })
  monthlyQuota: number | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
