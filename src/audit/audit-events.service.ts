import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { deleteInBatches } from '../common/database/delete-in-batches';
import { ApiError } from '../common/errors/api-error';
import { securityConfig, SecurityConfig } from '../config/security.config';
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
    @Inject(securityConfig.KEY) private readonly config: SecurityConfig,
  ) {}

  async listForAccount(accountId: string, filter: AuditEventFilter): Promise<AuditEventPage> {
    const limit = filter.limit ?? AUDIT_PAGE_DEFAULT;
    const query = this.events
      .createQueryBuilder('e')
      .where('e.accountId = :accountId', { accountId })
      .orderBy('e.seq', 'DESC')
      .limit(limit + 1);
    if (filter.cursor !== undefined) {
      const seq = decodeAuditCursor(filter.cursor);
      if (seq === undefined) throw badCursor();
      query.andWhere('e.seq < :seq', { seq: Number(seq) });
    }
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
      nextCursor: rows.length > limit ? encodeAuditCursor(String(page[page.length - 1].seq)) : null,
    };
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
