import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../accounts/accounts.service';
import { effectiveRateLimit, PLAN_LIMITS_PER_MINUTE } from '../../accounts/plans';

/** How long an account's limit is trusted: operator changes (CLI set-plan / set-rate-limit) apply within this. */
export const ACCOUNT_LIMIT_CACHE_MS = 10_000;

/** Requests per minute of an account (plan or override), read from the database at most every 10 s. */
@Injectable()
export class AccountLimitsService {
  private readonly cache = new Map<string, { limit: number; expiresAt: number }>();

  constructor(private readonly accounts: AccountsService) {}

  async limitFor(accountId: string): Promise<number> {
    const now = Date.now();
    const cached = this.cache.get(accountId);
    if (cached && cached.expiresAt > now) return cached.limit;
    const account = await this.accounts.findById(accountId);
    // An account deleted under a live token gets the smallest plan rather than an error here.
    const limit = account ? effectiveRateLimit(account) : PLAN_LIMITS_PER_MINUTE.free;
    if (this.cache.size > 100_000) this.cache.clear();
    this.cache.set(accountId, { limit, expiresAt: now + ACCOUNT_LIMIT_CACHE_MS });
    return limit;
  }

  /** Forget cached limits (tests, or after an operator change in this process). */
  invalidate(accountId?: string): void {
    if (accountId) this.cache.delete(accountId);
    else this.cache.clear();
  }
}
