import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { nextPlan, PLAN_DEFINITIONS, type Plan } from '../../accounts/plans';
import { principalOf } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import { AccountLimitsService } from '../rate-limit/account-limits.service';
import { attachCountedRateLimit } from '../rate-limit/rate-limit-state';
import { calendarMonthOf } from './calendar-month';
import { isDashboardRead } from './dashboard-reads';
import { MonthlyQuotaCounter } from './monthly-quota.counter';
import { attachQuota, QuotaState } from './quota-state';
import { QuotaThresholds } from './quota-thresholds';

/**
 * Global guard right after authentication (before the rate limit): every authenticated request
 * counts against the account's UTC calendar-month quota. Sets X-Quota-Limit, X-Quota-Remaining
 * ("unlimited" for an unlimited plan) and X-Quota-Reset (seconds until the month ends) on every
 * protected response; past the quota: 402 QUOTA_EXCEEDED with {limit, used, resetsAt}.
 */
@Injectable()
export class MonthlyQuotaGuard implements CanActivate {
  constructor(
    private readonly limits: AccountLimitsService,
    private readonly counter: MonthlyQuotaCounter,
    private readonly thresholds: QuotaThresholds,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const principal = principalOf(req);
    if (!principal) return true;
    const policy = await this.limits.policyFor(principal.accountId);
    const now = Date.now();
    const month = calendarMonthOf(now);
    const limit = policy.monthlyQuota;
    // The dashboard's own reads are free (issue 33): counted neither here nor as a threshold.
    const free = isDashboardRead(req.method, req.path, principal.method);
    const { used, admitted, rateLimit } = free
      ? {
          used: await this.counter.peek(principal.accountId, month),
          admitted: true,
          rateLimit: undefined,
        }
      : await this.counter.consume(principal.accountId, limit, month, policy.requestsPerMinute);
    if (rateLimit) attachCountedRateLimit(req, rateLimit);
    if (admitted && !free) this.thresholds.observe(principal.accountId, used, limit, month);
    const state: QuotaState = {
      plan: policy.plan,
      limit,
      used,
      remaining: limit === null ? null : Math.max(0, limit - used),
      resetsAt: month.resetsAtIso,
    };
    const res = context.switchToHttp().getResponse<Response>();
    res.setHeader('X-Quota-Limit', String(state.limit ?? 'unlimited'));
    res.setHeader('X-Quota-Remaining', String(state.remaining ?? 'unlimited'));
    res.setHeader('X-Quota-Reset', String(Math.ceil((month.resetsAt - now) / 1000)));
    attachQuota(req, state);
    if (!admitted) {
      throw new ApiError('QUOTA_EXCEEDED', `The monthly quota of ${limit} requests is used up`, {
        hint: upgradeHint(policy.plan, state.resetsAt),
        extra: { limit, used, resetsAt: state.resetsAt },
      });
    }
    return true;
  }
}

function upgradeHint(plan: Plan, resetsAt: string): string {
  const next = nextPlan(plan);
  const wait = `or wait until ${resetsAt} (UTC month)`;
  if (!next) return `Ask the operator to raise this account's monthly quota, ${wait}.`;
  const quota = PLAN_DEFINITIONS[next].monthlyQuota;
  const size =
    quota === null ? 'unlimited requests' : `${quota.toLocaleString('en-US')} requests a month`;
  return `Upgrade from the ${plan} plan to ${next} (${size}; GET /api/v1/plans lists the plans), ${wait}.`;
}
