import { Injectable } from '@nestjs/common';
import { ItemBackoff } from '../../common/scheduling/item-backoff';
import { PeriodicScan } from '../../common/scheduling/periodic-scan';
import { WebhooksConfig } from '../../config/webhooks.config';
import { SYSTEM_ACTOR } from '../../events/activity-event';
import { ActivityLog } from '../../events/activity-log';
import {
  ReceiptExecutionsService,
  SignedExecution,
} from '../../receipts/execution/receipt-executions.service';
import type { RawReceipt, RawTransaction } from '../chain/defi-chain.port';
import { TradeLedgerService } from '../../trading/ledger/trade-ledger.service';
import { RelayedTransaction } from './relayed-transaction.entity';
import { RelayedTransactionsService } from './relayed-transactions.service';
import { TransactionStatusService } from './transaction-status.service';

const BATCH = 50;
/** A relayed transaction still unmined after a day was dropped or replaced: stop watching it. */
const GIVE_UP_MS = 24 * 3_600_000;
/** A transaction whose check failed is tried again after 30 s, 1 min, ... at most every 15 min. */
const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 15 * 60_000;

/**
 * transaction.confirmed / transaction.reverted for transactions relayed through the service:
 * every WEBHOOK_SCAN_INTERVAL_MS the pending ones are read with the status endpoint's logic (the
 * revert decoded the same way), and each outcome is recorded once (RelayedTransactionsService.settle).
 * A transaction that is the build of a compliance receipt gives that receipt its execution, in the
 * same database transaction as its event, which names the receipt (`receiptId`); what the build
 * reserved toward the account's daily trade limits is then counted as mined.
 */
@Injectable()
export class RelayedTransactionWatcher extends PeriodicScan {
  private prunedAt = 0;
  private readonly backoff = new ItemBackoff(RETRY_BASE_MS, RETRY_MAX_MS);

  constructor(
    private readonly relayed: RelayedTransactionsService,
    private readonly statuses: TransactionStatusService,
    private readonly activity: ActivityLog,
    private readonly config: WebhooksConfig,
    private readonly receipts: ReceiptExecutionsService,
    private readonly ledger: TradeLedgerService,
  ) {
    super(config.scanIntervalMs);
  }

  protected async scan(): Promise<number> {
    if (Date.now() - this.prunedAt > 3_600_000) {
      this.prunedAt = Date.now();
      await this.relayed.pruneSettled(Date.now() - this.config.retentionDays * 86_400_000);
    }
    // Transactions waiting after a failure are read past, not in place of the others.
    const pending = await this.relayed.pending(
      BATCH + Math.min(this.backoff.waiting().length, 1_000),
    );
    if (pending.length === 0) return 0;
    await this.relayed.dropOlderThan(GIVE_UP_MS);
    return this.eachReady(
      pending,
      {
        backoff: this.backoff,
        limit: BATCH,
        keyOf: (tx) => tx.txHash,
        describe: (tx) => ({ accountId: tx.accountId, txHash: tx.txHash }),
        failure: 'Relayed transaction outcome not recorded; retrying later',
      },
      (tx) => this.settle(tx),
    );
  }

  private async settle(tx: RelayedTransaction): Promise<boolean> {
    const inspected = await this.statuses.inspect(tx.txHash);
    const { status } = inspected;
    if (status.status !== 'CONFIRMED' && status.status !== 'REVERTED') return false;
    const confirmed = status.status === 'CONFIRMED';
    const execution = await this.execution(tx, inspected.tx!, inspected.receipt!);
    return this.relayed.settle(tx.txHash, confirmed ? 'confirmed' : 'reverted', async (manager) => {
      if (execution) await this.receipts.record(execution, manager);
      // What the build reserved toward the daily limits now counts as mined (issue 54).
      if (confirmed && tx.receiptId) await this.ledger.minedByReceipt(tx.receiptId, manager);
      await this.activity.record(
        {
          accountId: tx.accountId,
          type: confirmed ? 'transaction.confirmed' : 'transaction.reverted',
          actor: SYSTEM_ACTOR,
          target: { type: 'transaction', id: tx.txHash },
          data: {
            txHash: tx.txHash,
            status: status.status,
            kind: status.kind,
            from: status.from,
            to: status.to,
            nonce: status.nonce,
            blockNumber: status.blockNumber,
            gasUsed: status.gasUsed,
            ...(status.swap ? { swap: status.swap } : {}),
            ...(status.tokenId ? { tokenId: status.tokenId } : {}),
            ...(status.revert ? { revert: status.revert } : {}),
            apiKeyId: tx.apiKeyId,
            receiptId: tx.receiptId,
          },
        },
        manager,
      );
    });
  }

  /** The receipt's execution, signed, when the transaction is a build's that has one. */
  private execution(
    tx: RelayedTransaction,
    mined: RawTransaction,
    receipt: RawReceipt,
  ): Promise<SignedExecution | null> {
    if (!tx.receiptId) return Promise.resolve(null);
    return this.receipts.sign(tx.receiptId, {
      txHash: tx.txHash,
      blockNumber: Number(receipt.blockNumber),
      status: BigInt(receipt.status) === 1n ? 'success' : 'reverted',
      gasUsed: BigInt(receipt.gasUsed),
      from: mined.from,
      value: BigInt(mined.value),
      logs: receipt.logs,
      relayed: true,
    });
  }
}
