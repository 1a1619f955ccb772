import { Injectable } from '@nestjs/common';
import type { Plan } from '../../accounts/plans';
import { AccountsService } from '../../accounts/accounts.service';
import { effectiveMonthlyQuota, effectiveRateLimit, PLAN_DEFINITIONS } from '../../accounts/plans';

/** How long an account's limits are trusted: operator changes (CLI set-plan / set-rate-limit / set-quota) apply within this. */
export const ACCOUNT_LIMIT_CACHE_MS = 10_000;

/** What an account may use: its plan's limits, or the operator's overrides. */
export interface AccountPolicy {
  plan: Plan;
  requestsPerMinute: number;
  /** Requests per UTC calendar month; null: unlimited. */
  monthlyQuota: number | null;
}

/** The limits of an account (plan or overrides), read from the database at most every 10 s. */
@Injectable()
export class AccountLimitsService {
  private readonly cache = new Map<string, { policy: AccountPolicy; expiresAt: number }>();

  constructor(private readonly accounts: AccountsService) {}

  async policyFor(accountId: string): Promise<AccountPolicy> {
    const now = Date.now();
    const cached = this.cache.get(accountId);
    if (cached && cached.expiresAt > now) return cached.policy;
    const account = await this.accounts.findById(accountId);
    // An account deleted under a live token gets the smallest plan rather than an error here.
    const policy: AccountPolicy = account
      ? {
          plan: account.plan,
          requestsPerMinute: effectiveRateLimit(account),
          monthlyQuota: effectiveMonthlyQuota(account),
        }
      : { plan: 'free', ...PLAN_DEFINITIONS.free };
    if (this.cache.size > 100_000) this.cache.clear();
    this.cache.set(accountId, { policy, expiresAt: now + ACCOUNT_LIMIT_CACHE_MS });
    return policy;
  }

  async limitFor(accountId: string): Promise<number> {
    return (await this.policyFor(accountId)).requestsPerMinute;
  }

  /** Forget cached limits (tests, or after an operator change in this process). */
  invalidate(accountId?: string): void {
    if (accountId) this.cache.delete(accountId);
    else this.cache.clear();
  }
}
