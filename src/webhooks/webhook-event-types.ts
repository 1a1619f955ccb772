import type { ActivityType } from '../events/activity-event';

/** The activity types an endpoint may subscribe to (design §8); webhook.test is sent on request. */
export const SUBSCRIBABLE_EVENT_TYPES = [
  'session.activated',
  'session.expiring',
  'session.revoked',
  'transaction.confirmed',
  'transaction.reverted',
  'api_key.created',
  'api_key.revoked',
  'quota.threshold',
  'compliance.policy_updated',
  'approval.requested',
  'approval.approved',
  'approval.rejected',
  'approval.expired',
] as const satisfies readonly ActivityType[];

export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];

/** Sent by POST /api/v1/webhooks/:id/test, and the notice row of an endpoint the service disabled. */
export const WEBHOOK_TEST = 'webhook.test';
export const WEBHOOK_DISABLED = 'webhook.disabled';

export function isSubscribable(type: string): type is SubscribableEventType {
  return (SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(type);
}

/** The body every delivery of an event sends (Standard Webhooks: type, timestamp-ish, data). */
export interface WebhookPayload {
  type: string;
  /** Also the webhook-id header. */
  id: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** `msg_` + 32 hex: the Standard Webhooks message id of an event (from the activity's uuid). */
export function webhookMessageId(activityId: string): string {
  return `msg_${activityId.replace(/-/g, '')}`;
}
