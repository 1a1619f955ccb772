import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { UsageRecord } from './usage-record.entity';
import { UsageRecorder } from './usage-recorder.service';

const DEFAULT_RANGE_MS = 30 * 24 * 60 * 60 * 1000;

export interface UsageFilter {
  accountId: string;
  from?: Date;
  to?: Date;
  keyId?: string;
}

type ScopedFilter = UsageFilter & { from: Date; to: Date };

interface Counts {
  requests: number;
  succeeded: number;
  failed: number;
  rateLimited: number;
}

export interface UsageStats {
  from: string;
  to: string;
  totals: Counts;
  byEndpoint: Array<
    { method: string; route: string; avgLatencyMs: number; maxLatencyMs: number } & Counts
  >;
  byCode: Record<string, number>;
  byKey: Array<
    {
      authMethod: string;
      keyId: string | null;
      userId: string | null;
      lastRequestAt: string | null;
    } & Counts
  >;
}

/** Aggregates in SQL (GROUP BY over the account's indexed rows), never in JS over every row. */
@Injectable()
export class UsageStatsService {
  constructor(
    @InjectRepository(UsageRecord) private readonly records: Repository<UsageRecord>,
    private readonly recorder: UsageRecorder,
  ) {}

  async statsFor(filter: UsageFilter): Promise<UsageStats> {
    const to = filter.to ?? new Date();
    const from = filter.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
    if (from.getTime() >= to.getTime()) {
      throw new ApiError('INVALID_PARAMS', '`from` must be before `to`', {
        details: [{ field: 'from', constraint: 'isBeforeTo', message: 'from must be before to' }],
      });
    }
    // This instance's queued rows first, so a caller sees its own latest requests.
    await this.recorder.flush();
    const scoped = { ...filter, from, to };
    const [totals, byEndpoint, byCode, byKey] = await Promise.all([
      this.totals(scoped),
      this.byEndpoint(scoped),
      this.byCode(scoped),
      this.byKey(scoped),
    ]);
    return { from: from.toISOString(), to: to.toISOString(), totals, byEndpoint, byCode, byKey };
  }

  private async totals(filter: ScopedFilter): Promise<Counts> {
    const row = await withCounts(this.scoped(filter)).getRawOne<Record<string, unknown>>();
    return counts(row ?? {});
  }

  private async byEndpoint(filter: ScopedFilter): Promise<UsageStats['byEndpoint']> {
    const rows = await withCounts(this.scoped(filter))
      .addSelect('u.method', 'method')
      .addSelect('u.route', 'route')
      .addSelect('AVG(u.latencyMs)', 'avgLatencyMs')
      .addSelect('MAX(u.latencyMs)', 'maxLatencyMs')
      .groupBy('u.method')
      .addGroupBy('u.route')
      .orderBy('requests', 'DESC')
      .getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({
      method: String(r.method),
      route: String(r.route),
      ...counts(r),
      avgLatencyMs: Math.round(Number(r.avgLatencyMs ?? 0)),
      maxLatencyMs: Number(r.maxLatencyMs ?? 0),
    }));
  }

  private async byCode(filter: ScopedFilter): Promise<Record<string, number>> {
    const rows = await this.scoped(filter)
      .select('u.code', 'code')
      .addSelect('COUNT(*)', 'requests')
      .andWhere('u.code IS NOT NULL')
      .groupBy('u.code')
      .orderBy('requests', 'DESC')
      .getRawMany<{ code: string; requests: unknown }>();
    return Object.fromEntries(rows.map((r) => [r.code, Number(r.requests)]));
  }

  private async byKey(filter: ScopedFilter): Promise<UsageStats['byKey']> {
    const rows = await withCounts(this.scoped(filter))
      .addSelect('u.authMethod', 'authMethod')
      .addSelect('u.apiKeyId', 'keyId')
      .addSelect('u.userId', 'userId')
      .addSelect('MAX(u.createdAt)', 'lastRequestAt')
      .groupBy('u.authMethod')
      .addGroupBy('u.apiKeyId')
      .addGroupBy('u.userId')
      .orderBy('requests', 'DESC')
      .getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({
      authMethod: String(r.authMethod),
      keyId: (r.keyId as string | null) ?? null,
      userId: (r.userId as string | null) ?? null,
      ...counts(r),
      lastRequestAt: toIso(r.lastRequestAt),
    }));
  }

  private scoped(filter: ScopedFilter): SelectQueryBuilder<UsageRecord> {
    const createdAt = this.records.metadata.findColumnWithPropertyName('createdAt')!;
    const driver = this.records.manager.connection.driver;
    const qb = this.records
      .createQueryBuilder('u')
      .where('u.accountId = :accountId', { accountId: filter.accountId })
      .andWhere('u.createdAt >= :from', {
        from: driver.preparePersistentValue(filter.from, createdAt),
      })
      .andWhere('u.createdAt < :to', { to: driver.preparePersistentValue(filter.to, createdAt) });
    return filter.keyId ? qb.andWhere('u.apiKeyId = :keyId', { keyId: filter.keyId }) : qb;
  }
}

function withCounts(qb: SelectQueryBuilder<UsageRecord>): SelectQueryBuilder<UsageRecord> {
  return qb
    .select('COUNT(*)', 'requests')
    .addSelect('SUM(CASE WHEN u.statusCode < 400 THEN 1 ELSE 0 END)', 'succeeded')
    .addSelect('SUM(CASE WHEN u.statusCode >= 400 THEN 1 ELSE 0 END)', 'failed')
    .addSelect('SUM(CASE WHEN u.statusCode = 429 THEN 1 ELSE 0 END)', 'rateLimited');
}

function counts(row: Record<string, unknown>): Counts {
  return {
    requests: Number(row.requests ?? 0),
    succeeded: Number(row.succeeded ?? 0),
    failed: Number(row.failed ?? 0),
    rateLimited: Number(row.rateLimited ?? 0),
  };
}

/** SQLite returns MAX(datetime) as 'YYYY-MM-DD HH:MM:SS.SSS' (UTC); PostgreSQL as a Date. */
function toIso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  return new Date(
    /[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`,
  ).toISOString();
}
