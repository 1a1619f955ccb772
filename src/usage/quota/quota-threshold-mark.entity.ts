import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** quota.threshold was recorded for this account, month and percent: the primary key makes it once. */
@Entity('quota_threshold_marks')
export class QuotaThresholdMark {
  @PrimaryColumn({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  /** `2026-11` (UTC). */
  @PrimaryColumn({ type: 'varchar', length: 7 })
  month: string;

  @PrimaryColumn({ type: 'integer' })
  percent: number;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
