export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface PlanDefinition {
  /** Requests per minute, one fixed 60 s window per account. */
  requestsPerMinute: number;
  /** Requests per UTC calendar month; null: unlimited. */
  monthlyQuota: number | null;
  /** Active (unrevoked) API keys an account may hold (issue 16). */
  maxApiKeys: number;
}

/** THE plan table (design §4, issue 15): every limit a plan carries; an account's overrides win. */
export const PLAN_DEFINITIONS: Readonly<Record<Plan, Readonly<PlanDefinition>>> = {
  free: { requestsPerMinute: 120, monthlyQuota: 10_000, maxApiKeys: 10 },
  pro: { requestsPerMinute: 1_200, monthlyQuota: 1_000_000, maxApiKeys: 100 },
  enterprise: { requestsPerMinute: 12_000, monthlyQuota: null, maxApiKeys: 1_000 },
};

/** Requests per minute of each plan (derived from PLAN_DEFINITIONS). */
export const PLAN_LIMITS_PER_MINUTE: Readonly<Record<Plan, number>> = Object.fromEntries(
  PLANS.map((plan) => [plan, PLAN_DEFINITIONS[plan].requestsPerMinute]),
) as Record<Plan, number>;

/** The plan after which `plan` comes (for the "upgrade" hint); null for the largest. */
export function nextPlan(plan: Plan): Plan | null {
  return PLANS[PLANS.indexOf(plan) + 1] ?? null;
}

export function effectiveRateLimit(account: {
  plan: Plan;
  rateLimitPerMinute: number | null;
}): number {
  return account.rateLimitPerMinute ?? PLAN_DEFINITIONS[account.plan].requestsPerMinute;
}

/** Requests per month of an account (null: unlimited): its override, else its plan's quota. */
export function effectiveMonthlyQuota(account: {
  plan: Plan;
  monthlyQuota: number | null;
}): number | null {
  return account.monthlyQuota ?? PLAN_DEFINITIONS[account.plan].monthlyQuota;
}

/** Active (unrevoked) API keys an account may hold, per plan (derived from PLAN_DEFINITIONS). */
export const PLAN_MAX_API_KEYS: Readonly<Record<Plan, number>> = Object.fromEntries(
  PLANS.map((plan) => [plan, PLAN_DEFINITIONS[plan].maxApiKeys]),
) as Record<Plan, number>;

/**
 * What the monthly quota does not count (issue 33): the dashboard's own reads, so looking at the
 * dashboard costs an account nothing. The quota guard (usage/quota) applies it.
 */
export const MONTHLY_QUOTA_EXCLUDES =
  'Dashboard reads (GET requests with a dashboard login, JWT, to usage, API keys, wallets, members, audit events, webhooks and /auth/me) do not count against the monthly quota; API-key requests and every write do. All count against the per-minute limit.';
