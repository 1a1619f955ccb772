import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, LessThan, LessThanOrEqual } from 'typeorm';
import { ChainResetRegistry, clearingAll } from '../../chain/instance/chain-reset.registry';
import { AttesterService } from '../../compliance/sessions/attester.service';
import { WebhooksConfig } from '../../config/webhooks.config';
import { SYSTEM_ACTOR } from '../../events/activity-event';
import { ActivityLog } from '../../events/activity-log';
import { ItemBackoff } from '../../common/scheduling/item-backoff';
import { PeriodicScan } from '../../common/scheduling/periodic-scan';
import { WatchedSession } from './watched-session.entity';

const BATCH = 100;
/** A session whose event failed is tried again after 1 min, 2 min, ... at most every hour. */
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 3_600_000;

/**
 * session.expiring: every WEBHOOK_SCAN_INTERVAL_MS, sessions the service opened whose activeUntil
 * is within WEBHOOK_SESSION_EXPIRING_LEAD_SECONDS of the chain's clock get the event, once: the
 * conditional UPDATE of expiring_sent_ms and the event commit together, so of several replicas
 * scanning at once exactly one records it. Sessions already over are dropped without an event.
 */
@Injectable()
export class SessionExpiryScanner extends PeriodicScan {
  private readonly backoff = new ItemBackoff(RETRY_BASE_MS, RETRY_MAX_MS);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly activity: ActivityLog,
    private readonly attester: AttesterService,
    private readonly config: WebhooksConfig,
    resets: ChainResetRegistry,
  ) {
    super(config.scanIntervalMs);
    // The sessions of an old chain instance end with it: no session.expiring for them.
    resets.register('watched sessions', clearingAll(WatchedSession));
  }

  protected async scan(): Promise<number> {
    const sessions = this.dataSource.getRepository(WatchedSession);
    if (!(await sessions.existsBy({ expiringSentMs: IsNull() }))) return 0;
    const chainNow = await this.attester.chainTime();
    await sessions.delete({ activeUntil: LessThan(chainNow - 86_400) });
    const due = await sessions.find({
      where: {
        expiringSentMs: IsNull(),
        activeUntil: LessThanOrEqual(chainNow + this.config.sessionExpiringLeadSeconds),
      },
      // Rows waiting after a failure are read past, not in place of the others.
      take: BATCH + Math.min(this.backoff.waiting().length, 1_000),
    });
    return this.eachReady(
      due,
      {
        backoff: this.backoff,
        limit: BATCH,
        keyOf: (session) => session.walletAddress,
        describe: (session) => ({
          accountId: session.accountId,
          walletAddress: session.walletAddress,
        }),
        failure: 'session.expiring not recorded for this session; retrying later',
      },
      (session) => this.notify(session, chainNow),
    );
  }

  private notify(session: WatchedSession, chainNow: number): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const claimed = await manager.getRepository(WatchedSession).update(
        {
          walletAddress: session.walletAddress,
          activeUntil: session.activeUntil,
          expiringSentMs: IsNull(),
        },
        { expiringSentMs: Date.now() },
      );
      if (claimed.affected !== 1 || session.activeUntil <= chainNow) return false;
      await this.activity.record(
        {
          accountId: session.accountId,
          type: 'session.expiring',
          actor: SYSTEM_ACTOR,
          target: { type: 'wallet', id: session.walletAddress },
          data: {
            walletAddress: session.walletAddress,
            activeUntil: new Date(session.activeUntil * 1000).toISOString(),
            activeUntilUnix: session.activeUntil,
            secondsLeft: session.activeUntil - chainNow,
          },
        },
        manager,
      );
      return true;
    });
  }
}
