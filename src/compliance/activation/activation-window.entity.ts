import { Column, Entity, PrimaryColumn } from 'typeorm';
import { integerColumn } from '../../common/database/integer-column';

/**
 * Issue 52: the activation transactions sent for one wallet in its current window (any path,
 * any account, every replica), so the attester's gas cannot be spent on one wallet faster than
 * ACTIVATIONS_PER_WALLET_PER_HOUR. One row per wallet, rewritten in place.
 */
@Entity('activation_windows')
export class ActivationWindow {
  @PrimaryColumn({ name: 'wallet_address', type: 'varchar', length: 42 })
  walletAddress: string;

  /** Unix ms the window started (its first counted activation). */
  @Column({ name: 'window_started_at', type: 'bigint', transformer: integerColumn })
  windowStartedAt: number;

  @Column({ type: 'integer' })
  sends: number;
}
