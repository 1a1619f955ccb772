import type { RequestMeta } from '../common/http/request-meta';
import { operatorIdOf } from '../config/operator-id';

/**
 * Every security- or integration-relevant change the service makes, named once. The audit trail
 * (src/audit) keeps the audited ones; the webhook outbox (src/webhooks) turns the subscribable
 * ones into deliveries. A call site records an event once and both sinks see it, in the same
 * database transaction as the change when the call site passes its EntityManager.
 */
export const ACTIVITY_TYPES = [
  // sign-in (audit)
  'auth.login_succeeded',
  'auth.login_failed',
  'auth.logout',
  'auth.refresh_reuse_detected',
  'auth.signup',
  'mfa.enabled',
  'mfa.disabled',
  // An operator removed a user's second factor (CLI users reset-mfa).
  'mfa.reset',
  // keys (audit + webhooks: api_key.created, api_key.revoked)
  'api_key.created',
  'api_key.updated',
  'api_key.revoked',
  // members (audit)
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'account.ownership_transferred',
  'account.settings_changed',
  // compliance (audit + webhooks: session.*)
  'wallet.bound',
  'wallet.rebound',
  'session.activated',
  'session.revoked',
  'session.expiring',
  'credential.revoked',
  'compliance.policy_updated',
  // four eyes (audit + webhooks, issue 55)
  'approval.requested',
  'approval.approved',
  'approval.rejected',
  'approval.expired',
  // webhooks (audit)
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  // broadcast (webhooks)
  'transaction.confirmed',
  'transaction.reverted',
  // usage (webhooks)
  'quota.threshold',
  // operator, from the CLI (audit)
  'account.created',
  'account.plan_changed',
] as const;

export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Who did it: a dashboard user, an API key, the operator's CLI, or the service itself. */
export interface ActivityActor {
  type: 'user' | 'api_key' | 'operator' | 'system';
  id: string | null;
}

export interface ActivityTarget {
  /** e.g. 'api_key', 'user', 'wallet', 'session', 'webhook', 'transaction', 'account'. */
  type: string;
  id: string;
}

export interface ActivityEvent {
  accountId: string;
  type: ActivityType;
  actor: ActivityActor;
  target?: ActivityTarget | null;
  /** Small and free of secrets: no passwords, tokens, key secrets or signing secrets. */
  data?: Record<string, unknown>;
  /** Absent for events the service raises on its own (session.expiring, transaction.*). */
  request?: RequestMeta | null;
}

/** An event as the sinks receive it: identified and dated once, so both sinks agree. */
export interface RecordedActivity extends ActivityEvent {
  id: string;
  at: Date;
}

export const SYSTEM_ACTOR: ActivityActor = { type: 'system', id: null };

/** The operator running this process (the CLI): OPERATOR_ID, else the OS user. */
export function operatorActor(
  env: Record<string, string | undefined> = process.env,
): ActivityActor {
  return { type: 'operator', id: operatorIdOf(env) };
}

/** The operator of this process, read once at start (the CLI's commands record it as their actor). */
export const OPERATOR_ACTOR: ActivityActor = operatorActor();

/** The actor of an authenticated request (Principal-shaped, to keep this module below auth). */
export function actorOf(principal: { userId?: string; apiKeyId?: string }): ActivityActor {
  if (principal.userId) return { type: 'user', id: principal.userId };
  if (principal.apiKeyId) return { type: 'api_key', id: principal.apiKeyId };
  return SYSTEM_ACTOR;
}
