import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { CompliancePolicyRules } from './policy-rules';

const json = {
  to: (value: object) => JSON.stringify(value),
  // jsonb arrives parsed from PostgreSQL, text from SQLite.
  from: (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as object) : value),
};

/** An account's compliance policy; an account without a row has the default policy. */
@Entity('compliance_policies')
export class CompliancePolicy {
  @PrimaryColumn({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @Column({ type: 'text', transformer: json })
  rules: CompliancePolicyRules;

  /** 1 after the first PUT, one more after each (issue 53): receipts name the version applied. */
  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;

  @Column({ name: 'updated_by', type: 'varchar', length: 64, nullable: true })
  updatedBy: string | null;
}
