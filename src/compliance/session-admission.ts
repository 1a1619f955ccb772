import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import type { RequestMeta } from '../common/http/request-meta';
import { AppConfig } from '../config/app.config';
import { ComplianceActivity } from './compliance-activity';
import { CompliancePolicyService, Presented } from './policy/compliance-policy.service';
import { WalletsService } from './wallets/wallets.service';

/**
 * The rules every session activation passes before its transaction is sent, whatever opens it
 * (the demo, a ZK proof, an attestation): the account's compliance policy judges what was
 * presented, then the binding rule: production needs the wallet already bound to the caller
 * (SIWE); demo mode binds an unbound wallet to the caller and refuses one bound elsewhere.
 */
@Injectable()
export class SessionAdmission {
  constructor(
    private readonly policy: CompliancePolicyService,
    private readonly wallets: WalletsService,
    private readonly activity: ComplianceActivity,
    private readonly app: AppConfig,
  ) {}

  async admit(
    principal: Principal,
    wallet: string,
    presented: Presented,
    meta?: RequestMeta,
  ): Promise<void> {
    await this.policy.enforce(principal.accountId, wallet, presented);
    if (this.app.mode === 'production') {
      return this.wallets.assertBoundTo(wallet, principal.accountId);
    }
    const bound = await this.wallets.bind(wallet, principal.accountId, 'keep');
    await this.activity.walletBound(principal, bound, meta);
  }
}
