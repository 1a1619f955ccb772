import type { Plan } from './account.entity';

/** Requests per minute of each plan (design §4); an account's own override wins. */
export const PLAN_LIMITS_PER_MINUTE: Readonly<Record<Plan, number>> = {
  free: 120,
  pro: 1_200,
  enterprise: 12_000,
};

export function effectiveRateLimit(account: {
  plan: Plan;
  rateLimitPerMinute: number | null;
}): number {
  return account.rateLimitPerMinute ?? PLAN_LIMITS_PER_MINUTE[account.plan];
}

/** Active (unrevoked) API keys an account may hold, per plan (issue 16). */
export const PLAN_MAX_API_KEYS: Readonly<Record<Plan, number>> = {
  free: 10,
  pro: 100,
  enterprise: 1_000,
};
