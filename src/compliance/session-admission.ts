import { Injectable, Logger } from '@nestjs/common';
import { getAddress } from 'ethers';
import type { Principal } from '../auth/principal';
import type { RequestMeta } from '../common/http/request-meta';
import { AppConfig } from '../config/app.config';
import { ComplianceConfig } from '../config/compliance.config';
import { SYSTEM_ACTOR } from '../events/activity-event';
import { ActivationThrottle } from './activation/activation-throttle';
import { ComplianceActivity } from './compliance-activity';
import { CompliancePolicyService, Presented } from './policy/compliance-policy.service';
import {
  SanctionsScreen,
  ScreenedWallet,
  walletSanctionedError,
} from './screening/sanctions-screen.service';
import { AttesterService } from './sessions/attester.service';
import { ActivatedSession, SessionsService } from './sessions/sessions.service';
import { WalletsService } from './wallets/wallets.service';

/** What every activation operation's /docs entry says about the rules below. */
export const ADMISSION_RULES =
  'A wallet the sanctions oracle lists is refused (403 WALLET_SANCTIONED), session or not, and a session it still has is ended on chain first (session.revoked, reason sanctioned). ' +
  'Nothing is written (no binding) unless every check passed. ' +
  'A session that an activation now would lengthen by at most half of SESSION_TTL_SECONDS is answered as it is (alreadyActive true, txHash null): nothing is sent. ' +
  'Activation transactions per wallet are limited (ACTIVATIONS_PER_WALLET_PER_HOUR, default 10, any path and account): over it, 429 ACTIVATION_RATE_LIMITED with Retry-After.';

/** A session left as it is: it already covers what an activation now would give (no transaction). */
export interface OpenSession {
  walletAddress: string;
  activeUntil: string;
  activeUntilUnix: number;
}

export interface AdmissionRequest {
  principal: Principal;
  wallet: string;
  presented: Presented;
  /** Unix s the presented source stops vouching (a credential's or attestation's expiry). */
  notAfter?: number;
  meta?: RequestMeta;
}

/**
 * The rules every session activation passes, whatever opens it (the demo, a ZK proof, an
 * attestation), after the path's own checks and in this order (issue 52):
 *   1. sanctions: a wallet the oracle lists is refused (403 WALLET_SANCTIONED) and a session it
 *      still has is ended on chain at once, as the screening watcher would (reason "sanctioned");
 *   2. the account's compliance policy (403 COMPLIANCE_POLICY_REFUSED);
 *   3. ownership, read only: production needs the wallet bound to the caller (SIWE), demo mode
 *      refuses one bound to another account (403 INSTITUTION_OWNERSHIP_MISMATCH);
 *   4. only then, in demo mode, an unbound wallet is bound to the caller: a refused activation
 *      changes nothing;
 *   5. a session that already covers what this activation would give is answered as it is (no
 *      transaction: `current`);
 * then `open` counts the activation against the wallet's limit (429 ACTIVATION_RATE_LIMITED) and
 * has the attester send it.
 */
@Injectable()
export class SessionAdmission {
  private readonly logger = new Logger(SessionAdmission.name);
  /** Sessions of listed wallets being ended by this instance: concurrent refusals end each once. */
  private readonly ending = new Map<string, Promise<void>>();

  constructor(
    private readonly policy: CompliancePolicyService,
    private readonly wallets: WalletsService,
    private readonly activity: ComplianceActivity,
    private readonly screen: SanctionsScreen,
    private readonly attester: AttesterService,
    private readonly sessions: SessionsService,
    private readonly throttle: ActivationThrottle,
    private readonly app: AppConfig,
    private readonly config: ComplianceConfig,
  ) {}

  /** Steps 1 to 5; `current` is the open session to answer with, or null: send an activation. */
  async admit(request: AdmissionRequest): Promise<{ current: OpenSession | null }> {
    const { principal, presented, notAfter, meta } = request;
    const wallet = getAddress(request.wallet.toLowerCase());
    const screened = await this.refuseListed(wallet);
    await this.policy.enforce(principal.accountId, wallet, presented);
    if (this.app.mode === 'production') {
      await this.wallets.assertBoundTo(wallet, principal.accountId);
    } else {
      // 'keep': one bound to another account is refused, and nothing is written.
      const bound = await this.wallets.bind(wallet, principal.accountId, 'keep');
      await this.activity.walletBound(principal, bound, meta);
    }
    return { current: this.unchanged(screened, notAfter) };
  }

  /** Counts the activation against the wallet's limit, then the attester sends it (mined). */
  async open(wallet: string, notAfter?: number): Promise<ActivatedSession> {
    const walletAddress = getAddress(wallet.toLowerCase());
    await this.throttle.count(walletAddress);
    return this.sessions.activate(walletAddress, notAfter);
  }

  /**
   * 403 WALLET_SANCTIONED for a listed wallet, with or without a session: the hook already
   * refuses its trades, and an open session would read as active everywhere until the watcher's
   * next pass. That session is ended first (mined), as the watcher would. One eth_call otherwise.
   */
  private async refuseListed(wallet: string): Promise<ScreenedWallet> {
    const screened = await this.screen.screenOne(wallet);
    if (!screened.sanctioned) return screened;
    if (screened.active) await this.endSession(wallet);
    throw walletSanctionedError(wallet);
  }

  private endSession(wallet: string): Promise<void> {
    const running = this.ending.get(wallet);
    if (running) return running;
    const ending = this.attester
      .revoke(wallet, 'sanctioned', SYSTEM_ACTOR)
      .then(
        (mined) =>
          this.logger.warn(
            { walletAddress: wallet, reason: 'sanctioned', txHash: mined.txHash },
            'Session of a listed wallet ended at its activation',
          ),
        // The refusal stands either way: the revocation stays owed and is sent again
        // (RevocationRetry), and the screening watcher would find the session too.
        (err: unknown) =>
          this.logger.error(
            { walletAddress: wallet, err: (err as Error).message },
            'Could not end the session of a listed wallet at its activation: the revocation is owed',
          ),
      )
      .finally(() => this.ending.delete(wallet));
    this.ending.set(wallet, ending);
    return ending;
  }

  /**
   * The open session, when an activation now would gain it at most half a session length
   * (SESSION_TTL_SECONDS / 2): the activation would end at min(now + TTL, notAfter), so a session
   * with more than half its TTL left, or already reaching the source's own expiry, is answered
   * as it is. Repeats cost the attester nothing; a session past half its length is renewed.
   */
  private unchanged(screened: ScreenedWallet, notAfter?: number): OpenSession | null {
    if (!screened.active) return null;
    const ttl = this.config.sessionTtlSeconds;
    const target = Math.min(screened.chainTime + ttl, notAfter ?? Infinity);
    if (target - screened.activeUntil > ttl / 2) return null;
    return {
      walletAddress: screened.walletAddress,
      activeUntil: new Date(screened.activeUntil * 1000).toISOString(),
      activeUntilUnix: screened.activeUntil,
    };
  }
}
