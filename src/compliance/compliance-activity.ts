import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import type { RequestMeta } from '../common/http/request-meta';
import { actorOf } from '../events/activity-event';
import { ActivityLog } from '../events/activity-log';
import type { ActivatedSession } from './sessions/sessions.service';
import type { BindResult } from './wallets/wallets.service';

/**
 * What compliance records in the activity log (audit trail, webhooks): wallet bindings and the
 * sessions the service opened. Sessions live on chain, so an activation is recorded after its
 * transaction is mined, in a transaction of its own.
 */
@Injectable()
export class ComplianceActivity {
  constructor(private readonly activity: ActivityLog) {}

  /** wallet.bound, or wallet.rebound when it left another account (never named here). */
  async walletBound(principal: Principal, bind: BindResult, meta?: RequestMeta): Promise<void> {
    if (!bind.changed) return;
    await this.activity.record({
      accountId: principal.accountId,
      type: bind.reboundFrom === null ? 'wallet.bound' : 'wallet.rebound',
      actor: actorOf(principal),
      target: { type: 'wallet', id: bind.walletAddress },
      data: { walletAddress: bind.walletAddress },
      request: meta ?? null,
    });
  }

  async sessionActivated(
    principal: Principal,
    session: ActivatedSession,
    via: 'demo' | 'proof',
    meta?: RequestMeta,
  ): Promise<void> {
    await this.activity.record({
      accountId: principal.accountId,
      type: 'session.activated',
      actor: actorOf(principal),
      target: { type: 'wallet', id: session.walletAddress },
      data: {
        walletAddress: session.walletAddress,
        activeUntil: session.activeUntil,
        activeUntilUnix: session.activeUntilUnix,
        txHash: session.txHash,
        blockNumber: session.blockNumber,
        via,
      },
      request: meta ?? null,
    });
  }
}
