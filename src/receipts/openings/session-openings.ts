import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { placeholders } from '../../common/database/placeholders';
import { CompliancePolicyService } from '../../compliance/policy/compliance-policy.service';
import type { RecordedActivity } from '../../events/activity-event';
import type { ActivitySink } from '../../events/activity-log';
import { SessionOpening } from './session-opening.entity';

/** A wallet's session opening as a build reads it. */
export interface OpeningView {
  activeUntil: number;
  via: string;
  source: { kind?: string; name?: string; uid?: string } | null;
  txHash: string | null;
  blockNumber: number | null;
  policy: {
    sources?: { mode?: string; names?: string[] };
    countries?: { allow?: string[]; deny?: string[] };
    minSessionSeconds?: number;
  };
  policyVersion: number | null;
}

/**
 * Keeps receipt_session_openings in step with the activity log, in the event's transaction: an
 * activation (or renewal) replaces the wallet's row with what opened it and the account's policy
 * at that moment (every activation path enforced that policy); a revocation deletes it.
 */
@Injectable()
export class SessionOpeningsSink implements ActivitySink {
  readonly name = 'receipt-session-openings';

  constructor(private readonly policies: CompliancePolicyService) {}

  async write(event: RecordedActivity, manager: EntityManager): Promise<void> {
    if (event.type !== 'session.activated' && event.type !== 'session.revoked') return;
    const wallet = event.data?.walletAddress;
    if (typeof wallet !== 'string') return;
    const openings = manager.getRepository(SessionOpening);
    const activeUntil = event.data?.activeUntilUnix;
    if (event.type === 'session.revoked' || typeof activeUntil !== 'number') {
      await openings.delete({ walletAddress: wallet });
      return;
    }
    const source = event.data?.source;
    const blockNumber = event.data?.blockNumber;
    const policy = await this.policies.stored(event.accountId, manager);
    await openings.upsert(
      {
        walletAddress: wallet,
        accountId: event.accountId,
        activeUntil,
        via: String(event.data?.via ?? 'unknown').slice(0, 16),
        source: source && typeof source === 'object' ? JSON.stringify(source) : null,
        txHash: typeof event.data?.txHash === 'string' ? event.data.txHash : null,
        blockNumber: typeof blockNumber === 'number' ? blockNumber : null,
        policy: JSON.stringify(policy.rules),
        // The version the activation was judged under (0: the default policy, never set).
        policyVersion: policy.version,
      },
      ['walletAddress'],
    );
  }
}

/** Openings kept in memory at most (the oldest read is dropped first). */
const CACHED_OPENINGS = 10_000;

/**
 * Reads of receipt_session_openings, on every build of a wallet with a session. The last row read
 * for a wallet is kept: while the session a build sees ends at the same activeUntil, that is the
 * row (a new activation, on any instance, ends at another time and is read afresh), so a wallet's
 * builds after the first read nothing.
 */
@Injectable()
export class SessionOpeningsService {
  private readonly cache = new Map<string, OpeningView>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The opening of the wallet's session that ends at `activeUntil`, or null when there is none. */
  async openingFor(wallet: string, activeUntil: number | null): Promise<OpeningView | null> {
    if (activeUntil === null) return null;
    const cached = this.cache.get(wallet);
    if (cached?.activeUntil === activeUntil) return cached;
    const opening = await this.openingOf(wallet);
    if (opening?.activeUntil !== activeUntil) return null;
    this.cache.delete(wallet);
    this.cache.set(wallet, opening);
    if (this.cache.size > CACHED_OPENINGS)
      this.cache.delete(this.cache.keys().next().value as string);
    return opening;
  }

  async openingOf(wallet: string): Promise<OpeningView | null> {
    const manager = this.dataSource.manager;
    const params: unknown[] = [];
    const mark = placeholders(manager);
    const rows = (await manager.query(
      'SELECT active_until, via, source, tx_hash, block_number, policy, policy_version ' +
        `FROM receipt_session_openings WHERE wallet_address = ${mark(params, wallet)}`,
      params,
    )) as Array<Record<string, string | number | null>>;
    if (rows.length === 0) return null;
    const row = rows[0];
    return {
      activeUntil: Number(row.active_until),
      via: String(row.via),
      source:
        row.source === null ? null : (JSON.parse(String(row.source)) as OpeningView['source']),
      txHash: row.tx_hash === null ? null : String(row.tx_hash),
      blockNumber: row.block_number === null ? null : Number(row.block_number),
      policy: JSON.parse(String(row.policy)) as OpeningView['policy'],
      policyVersion: row.policy_version === null ? null : Number(row.policy_version),
    };
  }
}
