import type { Repository } from 'typeorm';
import type { UsageRollup } from '../rollups/usage-rollup.entity';

/**
 * Issue 33 item 7: the dashboard's own reads are not counted against the monthly quota (a user
 * watching the dashboard must not spend the integration's requests). Only GETs with a dashboard
 * login (JWT) to these read endpoints; every API-key request and every write still counts.
 */
const DASHBOARD_READ_PATHS =
  /^\/api\/v1\/(usage|api-keys|wallets|account\/members|audit-events|auth\/me|webhooks)(\/|$)/;

export function isDashboardRead(method: string, path: string, authMethod: string): boolean {
  return authMethod === 'jwt' && method === 'GET' && DASHBOARD_READ_PATHS.test(path);
}

/**
 * Of the month so far in the roll-ups, the dashboard reads (JWT GETs to the paths above): the
 * quota counter's seed leaves them out, so a restart counts what the running counter counted.
 */
export async function dashboardReadsSince(
  rollups: Repository<UsageRollup>,
  accountId: string,
  fromMinute: number,
): Promise<number> {
  const rows = await rollups
    .createQueryBuilder('r')
    .select('r.route', 'route')
    .addSelect('COALESCE(SUM(r.requests), 0)', 'requests')
    .where('r.accountId = :accountId', { accountId })
    .andWhere('r.spanMinutes = 60 AND r.bucketMinute >= :fromMinute', { fromMinute })
    .andWhere("r.authMethod = 'jwt' AND r.method = 'GET'")
    .groupBy('r.route')
    .getRawMany<{ route: string; requests: unknown }>();
  return rows
    .filter((row) => DASHBOARD_READ_PATHS.test(row.route))
    .reduce((sum, row) => sum + Number(row.requests), 0);
}
