import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { deleteInBatches } from '../../common/database/delete-in-batches';
import { placeholders } from '../../common/database/placeholders';
import { BucketRange, RollupDelta, UsageDimensions } from './rollup-buckets';
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
const DIMENSIONS = 'auth_method, api_key_id, user_id, method, route, status_code, code';

/** 14 parameters a row: 500 rows stay far below both engines' bound-parameter limits. */
const UPSERT_CHUNK = 500;

/** One group of a stats range: the dimensions and their sums over the covering buckets. */
export type RollupGroup = UsageDimensions & {
  requests: number;
  latencySumMs: number;
  latencyMaxMs: number;
  lastRequestMs: number;
};

/** The usage roll-up table: upserts from the writer, grouped reads for stats, quota seeds, pruning. */
@Injectable()
export class UsageRollupsService {
  constructor(@InjectRepository(UsageRollup) private readonly rollups: Repository<UsageRollup>) {}

  /** Adds a batch's deltas, inside the caller's transaction (INSERT ... ON CONFLICT DO UPDATE). */
  async add(manager: EntityManager, deltas: readonly RollupDelta[]): Promise<void> {
    const mark = placeholders(manager);
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
        return `(${values.map((value) => mark(params, value)).join(', ')})`;
      });
      await manager.query(
        `INSERT INTO usage_rollups (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} ` +
          `ON CONFLICT (${CONFLICT_TARGET}) DO UPDATE SET ${UPDATE}`,
        params,
      );
    }
  }

  /**
   * Sums per dimension set over the buckets covering a range: one query, one UNION ALL branch per
   * bucket range, each an index range scan (an OR of the ranges makes SQLite merge row sets, 5x
   * slower).
   */
  async groups(
    accountId: string,
    ranges: readonly BucketRange[],
    keyId?: string,
  ): Promise<RollupGroup[]> {
    const { branches, params } = this.rangeBranches(
      `${DIMENSIONS}, requests, latency_sum_ms, latency_max_ms, last_request_ms`,
      accountId,
      ranges,
      keyId,
    );
    const sql =
      `SELECT ${DIMENSIONS}, SUM(requests) AS requests, SUM(latency_sum_ms) AS latency_sum, ` +
      `MAX(latency_max_ms) AS latency_max, MAX(last_request_ms) AS last_request ` +
      `FROM (${branches.join(' UNION ALL ')}) b GROUP BY ${DIMENSIONS}`;
    const rows = (await (this.rollups.manager.connection.options.type === 'postgres'
      ? // A few hundred rows: starting parallel workers costs more than they save (bench/README).
        this.rollups.manager.transaction(async (manager) => {
          await manager.query('SET LOCAL max_parallel_workers_per_gather = 0');
          return manager.query(sql, params);
        })
      : this.rollups.query(sql, params))) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      authMethod: String(r.auth_method),
      apiKeyId: r.api_key_id ? String(r.api_key_id) : null,
      userId: r.user_id ? String(r.user_id) : null,
      method: String(r.method),
      route: String(r.route),
      statusCode: Number(r.status_code),
      code: r.code ? String(r.code) : null,
      requests: Number(r.requests),
      latencySumMs: Number(r.latency_sum),
      latencyMaxMs: Number(r.latency_max),
      lastRequestMs: Number(r.last_request),
    }));
  }

  /**
   * Requests per bucket start and status over the buckets covering a range (one query, one UNION
   * ALL branch per bucket range, like `groups`): the caller folds them into a chart's series.
   */
  async perBucket(
    accountId: string,
    ranges: readonly BucketRange[],
    keyId?: string,
  ): Promise<Array<{ bucketMinute: number; statusCode: number; requests: number }>> {
    if (ranges.length === 0) return [];
    const { branches, params } = this.rangeBranches(
      `bucket_minute, status_code, requests`,
      accountId,
      ranges,
      keyId,
    );
    const rows = (await this.rollups.query(
      `SELECT bucket_minute, status_code, SUM(requests) AS requests FROM (${branches.join(' UNION ALL ')}) b ` +
        'GROUP BY bucket_minute, status_code',
      params,
    )) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      bucketMinute: Number(r.bucket_minute),
      statusCode: Number(r.status_code),
      requests: Number(r.requests),
    }));
  }

  /** One SELECT of `columns` per bucket range (the account's, and the key's if given). */
  private rangeBranches(
    columns: string,
    accountId: string,
    ranges: readonly BucketRange[],
    keyId?: string,
  ): { branches: string[]; params: unknown[] } {
    const mark = placeholders(this.rollups.manager);
    const params: unknown[] = [];
    const branches = ranges.map((range) => {
      const where = [
        `account_id = ${mark(params, accountId)}`,
        `span_minutes = ${mark(params, range.spanMinutes)}`,
        `bucket_minute >= ${mark(params, range.fromMinute)}`,
        `bucket_minute < ${mark(params, range.toMinute)}`,
        ...(keyId ? [`api_key_id = ${mark(params, keyId)}`] : []),
      ];
      return `SELECT ${columns} FROM usage_rollups WHERE ${where.join(' AND ')}`;
    });
    return { branches, params };
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
      't.bucketMinute + 0 < :beforeMinute', // the expression of IDX_usage_rollups_age
      { beforeMinute },
      batchSize,
    );
  }
}
