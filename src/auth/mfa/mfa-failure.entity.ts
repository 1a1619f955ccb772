import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A user's wrong one-time codes in the current lockout window (MfaLockout). No row: none since the
 * last accepted code.
 */
@Entity('mfa_failures')
export class MfaFailure {
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  /** Codes tried in the window and not (yet) accepted; an accepted code deletes the row. */
  @Column({ type: 'integer' })
  failures: number;

  @Column({ name: 'window_started_at', type: Date })
  windowStartedAt: Date;
}
