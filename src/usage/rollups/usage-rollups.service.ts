import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, Repository } from 'typeorm';
import { deleteInBatches } from '../../common/database/delete-in-batches';
import { BucketRange, RollupDelta } from './rollup-buckets';
import { UsageRollup } from './usage-rollup.entity';

const COLUMNS = [
  'span_minutes',
  'bucket_minute',
  'account_id',
  'auth_method',
  'api_key_id',
  'user_id',
  'method',
  'route',
  'status_code',
  'code',
  'requests',
  'latency_sum_ms',
  'latency_max_ms',
  'last_request_ms',
] as const;
const CONFLICT_TARGET = COLUMNS.slice(0, 10).join(', ');
/** SQLite has no GREATEST and PostgreSQL no two-argument MAX: CASE works on both. */
const larger = (column: string) =>
  `${column} = CASE WHEN excluded.${column} > usage_rollups.${column} THEN excluded.${column} ELSE usage_rollups.${column} END`;
const UPDATE = [
  'requests = usage_rollups.requests + excluded.requests',
  'latency_sum_ms = usage_rollups.latency_sum_ms + excluded.latency_sum_ms',
  larger('latency_max_ms'),
  larger('last_request_ms'),
].join(', ');
/** 14 parameters a row: 500 rows stay far below both engines' bound-parameter limits. */
const UPSERT_CHUNK = 500;

/** One group of a stats range: the dimensions and their sums over the covering buckets. */
export interface RollupGroup {
  authMethod: string;
  apiKeyId: string | null;
  userId: string | null;
  method: string;
  route: string;
  statusCode: number;
  code: string | null;
  requests: number;
  latencySumMs: number;
  latencyMaxMs: number;
  lastRequestMs: number;
}

/** The usage roll-up table: upserts from the writer, grouped reads for stats, quota seeds, pruning. */
@Injectable()
export class UsageRollupsService {
  constructor(@InjectRepository(UsageRollup) private readonly rollups: Repository<UsageRollup>) {}

  /** Adds a batch's deltas, inside the caller's transaction (INSERT ... ON CONFLICT DO UPDATE). */
  async add(manager: EntityManager, deltas: readonly RollupDelta[]): Promise<void> {
    const postgres = manager.connection.options.type === 'postgres';
    for (let start = 0; start < deltas.length; start += UPSERT_CHUNK) {
      const chunk = deltas.slice(start, start + UPSERT_CHUNK);
      const params: unknown[] = [];
      const tuples = chunk.map((d) => {
        const values = [
          d.spanMinutes,
          d.bucketMinute,
          d.accountId,
          d.authMethod,
          d.apiKeyId,
          d.userId,
          d.method,
          d.route,
          d.statusCode,
          d.code,
          d.requests,
          d.latencySumMs,
          d.latencyMaxMs,
          d.lastRequestMs,
        ];
        const marks = values.map((value) => {
          params.push(value);
          return postgres ? `$${params.length}` : '?';
        });
        return `(${marks.join(', ')})`;
      });
      await manager.query(
        `INSERT INTO usage_rollups (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} ` +
          `ON CONFLICT (${CONFLICT_TARGET}) DO UPDATE SET ${UPDATE}`,
        params,
      );
    }
  }

  /** Sums per dimension set over the buckets covering a range (one indexed query). */
  async groups(
    accountId: string,
    ranges: readonly BucketRange[],
    keyId?: string,
  ): Promise<RollupGroup[]> {
    const qb = this.rollups
      .createQueryBuilder('r')
      .select('r.authMethod', 'authMethod')
      .addSelect('r.apiKeyId', 'apiKeyId')
      .addSelect('r.userId', 'userId')
      .addSelect('r.method', 'method')
      .addSelect('r.route', 'route')
      .addSelect('r.statusCode', 'statusCode')
      .addSelect('r.code', 'code')
      .addSelect('SUM(r.requests)', 'requests')
      .addSelect('SUM(r.latencySumMs)', 'latencySumMs')
      .addSelect('MAX(r.latencyMaxMs)', 'latencyMaxMs')
      .addSelect('MAX(r.lastRequestMs)', 'lastRequestMs')
      .where('r.accountId = :accountId', { accountId })
      .andWhere(
        new Brackets((any) => {
          ranges.forEach((range, i) =>
            any.orWhere(
              `(r.spanMinutes = :span${i} AND r.bucketMinute >= :from${i} AND r.bucketMinute < :to${i})`,
              {
                [`span${i}`]: range.spanMinutes,
                [`from${i}`]: range.fromMinute,
                [`to${i}`]: range.toMinute,
              },
            ),
          );
        }),
      )
      .groupBy('r.authMethod')
      .addGroupBy('r.apiKeyId')
      .addGroupBy('r.userId')
      .addGroupBy('r.method')
      .addGroupBy('r.route')
      .addGroupBy('r.statusCode')
      .addGroupBy('r.code');
    if (keyId) qb.andWhere('r.apiKeyId = :keyId', { keyId });
    const rows = await qb.getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({
      authMethod: String(r.authMethod),
      apiKeyId: r.apiKeyId ? String(r.apiKeyId) : null,
      userId: r.userId ? String(r.userId) : null,
      method: String(r.method),
      route: String(r.route),
      statusCode: Number(r.statusCode),
      code: r.code ? String(r.code) : null,
      requests: Number(r.requests),
      latencySumMs: Number(r.latencySumMs),
      latencyMaxMs: Number(r.latencyMaxMs),
      lastRequestMs: Number(r.lastRequestMs),
    }));
  }

  /**
   * Requests of an account since `fromMinute` (an hour boundary) that count against its monthly
   * quota: everything metered except the quota's own refusals and scope refusals (both stopped
   * before the quota counts). Read from the hour buckets.
   */
  async quotaUsedSince(accountId: string, fromMinute: number): Promise<number> {
    const row = await this.rollups
      .createQueryBuilder('r')
      .select('COALESCE(SUM(r.requests), 0)', 'used')
      .where('r.accountId = :accountId', { accountId })
      .andWhere('r.spanMinutes = 60 AND r.bucketMinute >= :fromMinute', { fromMinute })
      .andWhere('r.code NOT IN (:...uncounted)', {
        uncounted: ['QUOTA_EXCEEDED', 'API_KEY_SCOPE_MISSING'],
      })
      .getRawOne<{ used: unknown }>();
    return Number(row?.used ?? 0);
  }

  /** Deletes buckets that start before `beforeMinute`, `batchSize` rows a statement. */
  prune(beforeMinute: number, batchSize: number): Promise<number> {
    return deleteInBatches(
      this.rollups,
      't.bucketMinute < :beforeMinute',
      { beforeMinute },
      batchSize,
    );
  }
}
