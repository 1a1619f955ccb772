import { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { ActivitySink } from '../events/activity-log';
import type { RecordedActivity } from '../events/activity-event';
import { AuditEvent } from './audit-event.entity';
import { isAudited } from './audited-types';

const DATA_MAX_CHARS = 4_096;

/**
 * Appends audited activity to `audit_events` in the caller's transaction: the event commits or
 * rolls back with the change it describes. Inserts only; nothing in the code updates a row.
 */
export class AuditTrailSink implements ActivitySink {
  readonly name = 'audit-trail';

  async write(event: RecordedActivity, manager: EntityManager): Promise<void> {
    if (!isAudited(event.type)) return;
    const row: Omit<AuditEvent, 'seq'> = {
      id: event.id,
      at: event.at,
      accountId: event.accountId,
      type: event.type,
      actorType: event.actor.type,
      actorId: event.actor.id?.slice(0, 64) ?? null,
      targetType: event.target?.type.slice(0, 32) ?? null,
      targetId: event.target?.id.slice(0, 128) ?? null,
      ip: event.request?.ip?.slice(0, 64) ?? null,
      userAgent: event.request?.userAgent?.slice(0, 512) ?? null,
      requestId: event.request?.requestId?.slice(0, 128) ?? null,
      data: boundedData(event.data),
    };
    await manager.insert(AuditEvent, row as QueryDeepPartialEntity<AuditEvent>);
  }
}

/** `data` is meant to be small; an oversized one is replaced rather than bloating the trail. */
function boundedData(data: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (!data || Object.keys(data).length === 0) return null;
  return JSON.stringify(data).length <= DATA_MAX_CHARS ? data : { truncated: true };
}
