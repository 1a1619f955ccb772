// @ts-check
/**
 * Readers of responses whose shape is changing on other branches: they accept today's shape and
 * the announced one, so the page keeps working across the change. Pure functions (no DOM).
 */

/**
 * GET /api/v1/api-keys: `{items}` today; a paginated `{data, nextCursor}` or a bare array too.
 * @param {any} body
 * @returns {{keys: any[], nextCursor: string | null}}
 */
export function readKeyPage(body) {
  const keys = Array.isArray(body) ? body : (body?.items ?? body?.data ?? []);
  return { keys, nextCursor: body?.nextCursor ?? body?.next_cursor ?? null };
}

/**
 * The monthly quota and plan of GET /api/v1/usage/stats, once they exist: `plan` a name or
 * `{name}`; `quota` a number (per month), `{limit|perMonth, used|requests, remaining}`, or null
 * (no quota). Undefined when the response carries neither.
 * @param {{quota?: any, plan?: any}} stats
 * @returns {{plan: string | null, limit: number | null, used: number | null, remaining: number | null} | undefined}
 */
export function readQuota(stats) {
  const { quota, plan } = stats;
  if (quota === undefined && plan === undefined) return undefined;
  const planName = typeof plan === 'string' ? plan : (plan?.name ?? plan?.id ?? null);
  const number = (/** @type {unknown} */ v) => (typeof v === 'number' ? v : null);
  if (typeof quota === 'number')
    return { plan: planName, limit: quota, used: null, remaining: null };
  return {
    plan: planName,
    limit: number(quota?.limit ?? quota?.perMonth ?? quota?.monthly),
    used: number(quota?.used ?? quota?.requests ?? quota?.consumed),
    remaining: number(quota?.remaining),
  };
}
