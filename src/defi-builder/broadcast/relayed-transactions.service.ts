import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThan, Not } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { ChainResetRegistry, clearingAll } from '../../chain/instance/chain-reset.registry';
import { isUniqueViolation } from '../../common/database/unique-violation';
import { RelayedTransaction, RelayedTxState } from './relayed-transaction.entity';

/** Which transactions were relayed for which account, and whether their outcome was recorded. */
@Injectable()
export class RelayedTransactionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    resets: ChainResetRegistry,
  ) {
    // Transactions of an old chain instance are on no chain now: GET answers NOT_FOUND for them.
    resets.register('relayed transactions', clearingAll(RelayedTransaction));
  }

  private get rows() {
    return this.dataSource.getRepository(RelayedTransaction);
  }

  /** Remembers a relayed transaction (idempotent: the same bytes relayed again keep the first row). */
  async remember(
    principal: Principal,
    tx: { hash: string; from: string; kind: string },
    receiptId: string | null = null,
  ): Promise<void> {
    try {
      await this.rows.insert({
        receiptId,
        txHash: tx.hash.toLowerCase(),
        accountId: principal.accountId,
        apiKeyId: principal.apiKeyId ?? null,
        fromAddress: tx.from,
        kind: tx.kind,
        state: 'pending',
        relayedMs: Date.now(),
        settledMs: null,
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }

  /** The oldest pending transactions, at most `limit`. */
  pending(limit: number): Promise<RelayedTransaction[]> {
    return this.rows.find({
      where: { state: 'pending' },
      order: { relayedMs: 'ASC' },
      take: limit,
    });
  }

  /**
   * Moves a transaction out of `pending` (one conditional UPDATE: exactly one instance wins) and,
   * in the same transaction, lets the winner record its event.
   */
  settle(
    txHash: string,
    state: Exclude<RelayedTxState, 'pending'>,
    then: (manager: EntityManager) => Promise<unknown>,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager
        .getRepository(RelayedTransaction)
        .update({ txHash, state: 'pending' }, { state, settledMs: Date.now() });
      if (result.affected !== 1) return false;
      await then(manager);
      return true;
    });
  }

  /** Deletes settled rows (confirmed, reverted, dropped) settled before `beforeMs`. */
  async pruneSettled(beforeMs: number): Promise<number> {
    const result = await this.rows.delete({
      state: Not('pending'),
      settledMs: LessThan(beforeMs),
    });
    return result.affected ?? 0;
  }

  /** Pending for longer than `maxAgeMs` (dropped from the node's pool): no event, no more polling. */
  async dropOlderThan(maxAgeMs: number): Promise<number> {
    const result = await this.rows.update(
      { state: 'pending', relayedMs: LessThan(Date.now() - maxAgeMs) },
      { state: 'dropped', settledMs: Date.now() },
    );
    return result.affected ?? 0;
  }
}
