import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Brackets, EntityManager, In, LessThan, Repository } from 'typeorm';
import { KeyedQueue } from './keyed-queue';
import { TradeReservation } from './trade-reservation.entity';

export const WINDOW_MS = 24 * 3600 * 1000;

/** One token a build gives, as it is reserved. */
export interface ReservationInput {
  wallet: string;
  token: string;
  raw: bigint;
}

/** The build's authorization (on-chain enforcement), or none (service mode). */
export interface ReservationTerms {
  deadline: number;
  nonce?: string | null;
  authorizationId?: string | null;
}

/**
 * The daily-limit ledger (issue 54): what counts toward an account's 24 h limits is every trade
 * mined in the last 24 h plus every reservation not yet mined nor expired. A reservation with an
 * authorization (on chain) counts until the sweep has asked the hook whether its nonce was used,
 * as long as it could have been mined in the window (deadline within the last 24 h); one without
 * (service mode) counts until its deadline or until the relay sees it mined. `reserve` sums and
 * inserts in one transaction under the account's lock, so that replicas never together pass a
 * limit: a PostgreSQL transaction-scoped advisory lock on the account, SQLite's single writer.
 */
@Injectable()
export class TradeLedgerService {
  /**
   * This process's reservations of one account, one at a time: SQLite's one connection runs
   * concurrent TypeORM transactions as interleaved savepoints (no isolation), and on PostgreSQL
   * it spares the pool connections that would wait on the advisory lock.
   */
  private readonly inProcess = new KeyedQueue();

  constructor(
    @InjectRepository(TradeReservation) private readonly reservations: Repository<TradeReservation>,
  ) {}

  /** Raw units used per token in the window ending now (no lock: a dry run's view). */
  used(accountId: string, tokens: string[], now = Date.now()): Promise<Map<string, bigint>> {
    return this.usedWith(this.reservations.manager, accountId, tokens, now);
  }

  /**
   * Under the account's lock: what the window holds, `check` on it (it throws to refuse), then
   * one row per token given, all in one transaction. Answers the build's id.
   */
  async reserve(
    accountId: string,
    gives: ReservationInput[],
    terms: ReservationTerms,
    check: (used: Map<string, bigint>) => void | Promise<void>,
  ): Promise<string> {
    const buildId = randomUUID();
    await this.inProcess.run(accountId, () =>
      this.reserveLocked(accountId, buildId, gives, terms, check),
    );
    return buildId;
  }

  private reserveLocked(
    accountId: string,
    buildId: string,
    gives: ReservationInput[],
    terms: ReservationTerms,
    check: (used: Map<string, bigint>) => void | Promise<void>,
  ): Promise<void> {
    return this.reservations.manager.transaction(async (manager) => {
      await this.lockAccount(manager, accountId);
      const now = Date.now();
      await check(
        await this.usedWith(manager, accountId, [...new Set(gives.map((g) => g.token))], now),
      );
      if (gives.length === 0) return;
      await manager.getRepository(TradeReservation).insert(
        gives.map((give) => ({
          id: randomUUID(),
          buildId,
          accountId,
          wallet: give.wallet,
          token: give.token,
          amount: give.raw.toString(),
          deadline: terms.deadline,
          nonce: terms.nonce ?? null,
          authorizationId: terms.authorizationId ?? null,
          receiptId: null,
          status: 'reserved' as const,
          createdMs: now,
          minedMs: null,
        })),
      );
    });
  }

  /** The build's compliance receipt (issue 56): the relay watcher finds its reservation by it. */
  async linkReceipt(buildId: string, receiptId: string): Promise<void> {
    await this.reservations.update({ buildId }, { receiptId });
  }

  /**
   * The relay watcher saw the receipt's transaction mined: its reservations count as mined (also
   * one the sweep expired meanwhile, its deadline passed before the watcher's pass).
   */
  async minedByReceipt(receiptId: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.reservations.manager)
      .getRepository(TradeReservation)
      .update(
        { receiptId, status: In(['reserved', 'expired']) },
        { status: 'mined', minedMs: Date.now() },
      );
  }

  /** The wallets that built for the account (its ledger's), checksummed. */
  async walletsOf(accountId: string): Promise<string[]> {
    const rows = await this.reservations
      .createQueryBuilder('r')
      .select('DISTINCT r.wallet', 'wallet')
      .where('r.account_id = :accountId', { accountId })
      .getRawMany<{ wallet: string }>();
    return rows.map((r) => r.wallet);
  }

  /** Reservations still reserved whose deadline has passed: the sweep settles them. */
  due(limit: number, nowSeconds = Math.floor(Date.now() / 1000)): Promise<TradeReservation[]> {
    return this.reservations.find({
      where: { status: 'reserved', deadline: LessThan(nowSeconds) },
      order: { deadline: 'ASC' },
      take: limit,
    });
  }

  /**
   * A reservation past its deadline: mined (its nonce was used on chain; counted as mined at the
   * deadline, the latest it can have been, so it never leaves the window early) or expired.
   */
  async settle(ids: string[], status: 'mined' | 'expired', minedMs?: number): Promise<void> {
    if (ids.length === 0) return;
    await this.reservations.update(
      { id: In(ids), status: 'reserved' },
      { status, minedMs: status === 'mined' ? (minedMs ?? Date.now()) : null },
    );
  }

  private async lockAccount(manager: EntityManager, accountId: string): Promise<void> {
    // SQLite is one process (the in-process queue serializes); PostgreSQL serves replicas.
    if (manager.connection.options.type !== 'postgres') return;
    await manager.query(
      `SELECT pg_advisory_xact_lock(54, hashtext($1 || ':' || coalesce(current_schema(), '')))`,
      [accountId],
    );
  }

  private async usedWith(
    manager: EntityManager,
    accountId: string,
    tokens: string[],
    now: number,
  ): Promise<Map<string, bigint>> {
    const used = new Map<string, bigint>();
    if (tokens.length === 0) return used;
    const nowSeconds = Math.floor(now / 1000);
    const rows = await manager
      .getRepository(TradeReservation)
      .createQueryBuilder('r')
      .select(['r.token', 'r.amount'])
      .where('r.account_id = :accountId', { accountId })
      .andWhere('r.token IN (:...tokens)', { tokens })
      .andWhere(
        new Brackets((counted) =>
          counted
            .where('(r.status = :mined AND r.mined_ms > :since)', {
              mined: 'mined',
              since: now - WINDOW_MS,
            })
            .orWhere(
              '(r.status = :reserved AND r.nonce IS NOT NULL AND r.deadline > :windowStart)',
              { reserved: 'reserved', windowStart: nowSeconds - WINDOW_MS / 1000 },
            )
            .orWhere('(r.status = :reserved AND r.nonce IS NULL AND r.deadline > :nowSeconds)', {
              nowSeconds,
            }),
        ),
      )
      .getMany();
    for (const row of rows) used.set(row.token, (used.get(row.token) ?? 0n) + BigInt(row.amount));
    return used;
  }
}
