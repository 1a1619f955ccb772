import type { DataSource } from 'typeorm';
import { placeholders } from '../common/database/placeholders';
import { OPERATOR_ACTOR, type ActivityActor, type ActivityType } from '../events/activity-event';
import type { ActivityLog } from '../events/activity-log';

/**
 * Records a compliance action (session or credential revocation: the operator's CLI, or the
 * screening watcher as the system) for the
 * account the wallet is bound to; an unbound wallet belongs to no account and records nothing.
 */
export async function recordForWalletOwner(
  dataSource: DataSource,
  activity: ActivityLog | undefined,
  walletAddress: string,
  type: Extract<ActivityType, 'session.revoked' | 'credential.revoked'>,
  data: Record<string, unknown>,
  actor: ActivityActor = OPERATOR_ACTOR,
): Promise<void> {
  if (!activity) return;
  const manager = dataSource.manager;
  const mark = placeholders(manager);
  const params: unknown[] = [];
  const rows = (await manager.query(
    `SELECT account_id FROM wallets WHERE address = ${mark(params, walletAddress)}`,
    params,
  )) as Array<{ account_id: string }>;
  if (rows.length === 0) return;
  await activity.record({
    accountId: String(rows[0].account_id),
    type,
    actor,
    target: { type: 'wallet', id: walletAddress },
    data: { walletAddress, ...data },
  });
}
