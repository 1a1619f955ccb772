import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import type { RequestMeta } from '../common/http/request-meta';
import { actorOf } from '../events/activity-event';
import { ActivityLog } from '../events/activity-log';
import type { ActivatedSession } from './sessions/sessions.service';
import type { BindResult } from './wallets/wallets.service';

/** What opened a session: the demo, a ZK proof, or an attestation (named source and uid). */
export type ActivationVia = 'demo' | 'proof' | 'attestation';
export interface ActivationSource {
  kind: 'attestation';
  name: string;
  uid: string;
}
/** How a session was opened, as its `session.activated` event says. */
export interface Opening {
  via: ActivationVia;
  source?: ActivationSource;
}

/**
 * What compliance records in the activity log (audit trail, webhooks): wallet bindings and the
 * sessions the service opened. Sessions live on chain, so an activation is recorded after its
 * transaction is mined, in a transaction of its own.
 */
/** Activation transactions remembered as recorded (a bounded window of the latest). */
const RECORDED_ACTIVATIONS_MAX = 1_000;

@Injectable()
export class ComplianceActivity {
  /**
   * Requests for one wallet's activation made meanwhile join its transaction (AttesterService)
   * and all answer with it: the activation is one event, recorded by whichever asks first.
   */
  private readonly activations = new Map<string, Promise<void>>();

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
    opening: Opening,
    meta?: RequestMeta,
  ): Promise<void> {
    const known = this.activations.get(session.txHash);
    if (known) return known;
    const recording = this.recordActivation(principal, session, opening, meta);
    this.activations.set(session.txHash, recording);
    if (this.activations.size > RECORDED_ACTIVATIONS_MAX)
      this.activations.delete(this.activations.keys().next().value as string);
    // A failed record is not remembered: the next caller tries again.
    recording.catch(() => this.activations.delete(session.txHash));
    return recording;
  }

  private async recordActivation(
    principal: Principal,
    { walletAddress, activeUntil, activeUntilUnix, txHash, blockNumber }: ActivatedSession,
    { via, source }: Opening,
    meta?: RequestMeta,
  ): Promise<void> {
    await this.activity.record({
      accountId: principal.accountId,
      type: 'session.activated',
      actor: actorOf(principal),
      target: { type: 'wallet', id: walletAddress },
      data: {
        walletAddress,
        activeUntil,
        activeUntilUnix,
        txHash,
        blockNumber,
        via,
        ...(source ? { source } : {}),
      },
      request: meta ?? null,
    });
  }
}
