import { ACTIVITY_TYPES, ActivityType } from '../events/activity-event';

/**
 * Activity the service raises on its own or that is not a security change: delivered to webhooks,
 * never audited.
 */
const NOT_AUDITED: ReadonlySet<ActivityType> = new Set<ActivityType>([
  'session.expiring',
  'transaction.confirmed',
  'transaction.reverted',
  'quota.threshold',
]);

/** Every activity type the audit trail keeps (and GET /api/v1/audit-events filters by). */
export const AUDITED_TYPES: readonly ActivityType[] = ACTIVITY_TYPES.filter(
  (type) => !NOT_AUDITED.has(type),
);

export function isAudited(type: ActivityType): boolean {
  return !NOT_AUDITED.has(type);
}
