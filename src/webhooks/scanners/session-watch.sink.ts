import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { RecordedActivity } from '../../events/activity-event';
import type { ActivitySink } from '../../events/activity-log';
import { WatchedSession } from './watched-session.entity';

/**
 * Keeps watched_sessions in step with the activity log, in the same transaction: an activation
 * (or renewal) replaces the wallet's row, a revocation deletes it. The expiry scanner reads it.
 */
@Injectable()
export class SessionWatchSink implements ActivitySink {
  readonly name = 'session-watch';

  async write(event: RecordedActivity, manager: EntityManager): Promise<void> {
    if (event.type !== 'session.activated' && event.type !== 'session.revoked') return;
    const wallet = event.data?.walletAddress;
    if (typeof wallet !== 'string') return;
    const sessions = manager.getRepository(WatchedSession);
    const activeUntil = event.data?.activeUntilUnix;
    if (event.type === 'session.activated' && typeof activeUntil === 'number') {
      // An upsert: two activations of one wallet committing at once (two replicas) both succeed.
      await sessions.upsert(
        { walletAddress: wallet, accountId: event.accountId, activeUntil, expiringSentMs: null },
        ['walletAddress'],
      );
    } else {
      await sessions.delete({ walletAddress: wallet });
    }
  }
}
