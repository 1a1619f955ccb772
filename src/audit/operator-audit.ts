/**
 * The operator audit (issue 58): every change an operator makes with the CLI is on the record,
 * with actor `{ type: "operator", id }` (OPERATOR_ID, else the OS user). A change to an account
 * goes to that account's audit trail through the activity log (create-account, users reset-mfa,
 * set-plan); a change that belongs to no account is an operator event (operator_events), written
 * here by the CLI's commands with whatever DataSource they hold (the app's, or the standalone
 * commands' own). `npm run cli -- audit list` reads both.
 */
import { randomUUID } from 'node:crypto';
import type { DataSource, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { OPERATOR_ACTOR, type ActivityActor } from '../events/activity-event';
import { AuditEvent } from './audit-event.entity';
import { OperatorEvent } from './operator-event.entity';

/** The operator changes that belong to no account (design.md §10's names, and the attester's keys). */
export const OPERATOR_EVENT_TYPES = [
  'issuer.added',
  'issuer.rotated',
  'issuer.revoked',
  'sanctions.listed',
  'sanctions.unlisted',
  'attester.funded',
  'attester.rotated',
  'attester.key_generated',
  'secret.rotated',
] as const;
export type OperatorEventType = (typeof OPERATOR_EVENT_TYPES)[number];

export interface OperatorChange {
  type: OperatorEventType;
  target?: { type: string; id: string } | null;
  /** Small and free of secrets (an address, a name, a tx hash, a fingerprint). */
  data?: Record<string, unknown>;
  actor?: ActivityActor;
}

/** One entry of `audit list`: an operator event, or an account's audit event made by an operator. */
export interface OperatorRecord {
  id: string;
  at: string;
  type: string;
  actor: ActivityActor;
  /** Set for a change to an account (its audit trail has it too). */
  accountId: string | null;
  target: { type: string; id: string } | null;
  data: Record<string, unknown> | null;
}

export async function recordOperatorChange(
  dataSource: DataSource,
  change: OperatorChange,
): Promise<OperatorRecord> {
  const actor = change.actor ?? OPERATOR_ACTOR;
  const row = {
    id: randomUUID(),
    at: new Date(),
    type: change.type,
    actorType: actor.type,
    actorId: actor.id?.slice(0, 64) ?? null,
    targetType: change.target?.type.slice(0, 32) ?? null,
    targetId: change.target?.id.slice(0, 128) ?? null,
    data: change.data && Object.keys(change.data).length > 0 ? change.data : null,
  };
  await dataSource
    .getRepository(OperatorEvent)
    .insert(row as QueryDeepPartialEntity<OperatorEvent>);
  return recordOf(row, null);
}

export interface OperatorRecordFilter {
  type?: string;
  since?: Date;
  limit: number;
}

/**
 * The operator's changes, newest first: operator events and the accounts' audit events whose actor
 * is an operator, merged by time.
 */
export async function listOperatorChanges(
  dataSource: DataSource,
  filter: OperatorRecordFilter,
): Promise<OperatorRecord[]> {
  const where = <T extends { at: Date; type: string }>(alias: string, q: SelectQueryBuilder<T>) => {
    if (filter.type) q.andWhere(`${alias}.type = :type`, { type: filter.type });
    if (filter.since) q.andWhere(`${alias}.at >= :since`, { since: filter.since });
    return q.orderBy(`${alias}.at`, 'DESC').take(filter.limit);
  };
  const [events, audited] = await Promise.all([
    where('e', dataSource.getRepository(OperatorEvent).createQueryBuilder('e')).getMany(),
    where(
      'a',
      dataSource
        .getRepository(AuditEvent)
        .createQueryBuilder('a')
        .where('a.actorType = :operator', { operator: 'operator' }),
    ).getMany(),
  ]);
  return [...events.map((e) => recordOf(e, null)), ...audited.map((a) => recordOf(a, a.accountId))]
    .sort((x, y) => y.at.localeCompare(x.at))
    .slice(0, filter.limit);
}

function recordOf(
  row: Pick<
    OperatorEvent,
    'id' | 'at' | 'type' | 'actorType' | 'actorId' | 'targetType' | 'targetId' | 'data'
  >,
  accountId: string | null,
): OperatorRecord {
  return {
    id: row.id,
    at: row.at.toISOString(),
    type: row.type,
    actor: { type: row.actorType as ActivityActor['type'], id: row.actorId },
    accountId,
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
    data: row.data,
  };
}
