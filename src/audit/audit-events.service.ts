import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { deleteInBatches } from '../common/database/delete-in-batches';
import { ApiError } from '../common/errors/api-error';
import { SecurityConfig } from '../config/security.config';
import { AuditEvent } from './audit-event.entity';
import { AUDIT_PAGE_DEFAULT, decodeAuditCursor, encodeAuditCursor } from './audit-page';

const DAY_MS = 24 * 60 * 60 * 1000;
const ACTOR_TYPES = ['operator', 'system'];

export interface AuditEventFilter {
  from?: Date;
  to?: Date;
  type?: string;
  /** A user or API key id, or `operator` / `system`. */
  actor?: string;
  cursor?: string;
  /** An event id: the events written after it, oldest first (a SIEM's polling cursor). */
  after?: string;
  limit?: number;
}

export interface AuditEventView {
  id: string;
  at: string;
  type: string;
  actor: { type: string; id: string | null };
  target: { type: string; id: string } | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  data: Record<string, unknown>;
}

export interface AuditEventPage {
  items: AuditEventView[];
  nextCursor: string | null;
}

/** Reads of the audit trail (own account only) and its retention; it has no update path. */
@Injectable()
export class AuditEventsService {
  constructor(
    @InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>,
    private readonly config: SecurityConfig,
  ) {}

  /**
   * Newest first by (at, seq), or oldest first after the event `after`. Either way every filter is
   * an equality prefix of one index followed by (at, seq), and the cursor a row-value bound on
   * (at, seq): one index range scan of `limit + 1` rows, however long the history (the indexes:
   * migration 1764460000000).
   */
  async listForAccount(accountId: string, filter: AuditEventFilter): Promise<AuditEventPage> {
    if (filter.cursor !== undefined && filter.after !== undefined) throw cursorAndAfter();
    const limit = filter.limit ?? AUDIT_PAGE_DEFAULT;
    const ascending = filter.after !== undefined;
    const order = ascending ? 'ASC' : 'DESC';
    const query = this.events
      .createQueryBuilder('e')
      .where('e.accountId = :accountId', { accountId })
      .orderBy('e.at', order)
      .addOrderBy('e.seq', order)
      .limit(limit + 1);
    const bound = ascending
      ? await this.positionOfEvent(accountId, filter.after!)
      : filter.cursor !== undefined
        ? await this.positionOfCursor(accountId, filter.cursor)
        : undefined;
    if (bound)
      query.andWhere(`(e.at, e.seq) ${ascending ? '>' : '<'} (:boundAt, :boundSeq)`, {
        boundAt: bound.at,
        boundSeq: bound.seq,
      });
    if (filter.from) query.andWhere('e.at >= :from', { from: this.persisted(filter.from) });
    if (filter.to) query.andWhere('e.at < :to', { to: this.persisted(filter.to) });
    if (filter.type) query.andWhere('e.type = :type', { type: filter.type });
    if (filter.actor && ACTOR_TYPES.includes(filter.actor))
      query.andWhere('e.actorType = :actorType', { actorType: filter.actor });
    else if (filter.actor) query.andWhere('e.actorId = :actorId', { actorId: filter.actor });
    const rows = await query.getMany();
    const page = rows.slice(0, limit);
    return {
      items: page.map(view),
      nextCursor:
        !ascending && rows.length > limit
          ? encodeAuditCursor(String(page[page.length - 1].seq))
          : null,
    };
  }

  /** The (at, seq) of a cursor's event: a primary-key read, scoped to the account. */
  private async positionOfCursor(accountId: string, cursor: string) {
    const seq = decodeAuditCursor(cursor);
    const row =
      seq === undefined
        ? null
        : await this.events
            .createQueryBuilder('e')
            .select(['e.seq', 'e.at'])
            .where('e.seq = :seq AND e.accountId = :accountId', { seq: Number(seq), accountId })
            .getOne();
    if (!row) throw badCursor();
    return { at: this.persisted(row.at), seq: Number(row.seq) };
  }

  /** The (at, seq) of the event `after`, by its unique id; another account's id is unknown here. */
  private async positionOfEvent(accountId: string, id: string) {
    const row = await this.events
      .createQueryBuilder('e')
      .select(['e.seq', 'e.at'])
      .where('e.id = :id AND e.accountId = :accountId', { id, accountId })
      .getOne();
    if (!row) throw unknownAfter();
    return { at: this.persisted(row.at), seq: Number(row.seq) };
  }

  /** The retention sweep's part: events older than AUDIT_RETENTION_DAYS, in bounded batches. */
  async pruneExpired(now: number, batchSize: number): Promise<Record<string, number>> {
    const cutoff = new Date(now - this.config.auditRetentionDays * DAY_MS);
    const auditEvents = await deleteInBatches(
      this.events,
      't.at < :cutoff',
      { cutoff: this.persisted(cutoff) },
      batchSize,
    );
    return { auditEvents };
  }

  /** A Date as the engine stores `at` (SQLite keeps text, which a Date parameter would not match). */
  private persisted(date: Date): unknown {
    const column = this.events.metadata.findColumnWithPropertyName('at')!;
    return this.events.manager.connection.driver.preparePersistentValue(date, column);
  }
}

function view(row: AuditEvent): AuditEventView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    type: row.type,
    actor: { type: row.actorType, id: row.actorId },
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
    ip: row.ip,
    userAgent: row.userAgent,
    requestId: row.requestId,
    data: row.data ?? {},
  };
}

function badCursor(): ApiError {
  return new ApiError('INVALID_PARAMS', 'cursor is not a nextCursor of this listing', {
    details: [{ field: 'cursor', constraint: 'isCursor', message: 'cursor is not valid' }],
  });
}

function cursorAndAfter(): ApiError {
  return new ApiError(
    'INVALID_PARAMS',
    'pass cursor (older pages) or after (newer events), not both',
    {
      details: [
        {
          field: 'after',
          constraint: 'notWithCursor',
          message: 'after cannot be combined with cursor',
        },
      ],
    },
  );
}

function unknownAfter(): ApiError {
  return new ApiError('INVALID_PARAMS', 'after is not the id of an event of this account', {
    hint: 'Pass the id of the last event you received; if it has passed AUDIT_RETENTION_DAYS, start again with from=',
    details: [
      { field: 'after', constraint: 'isAuditEventId', message: 'after is not a known event id' },
    ],
  });
}
