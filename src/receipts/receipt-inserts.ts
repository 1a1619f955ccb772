import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { placeholders } from '../common/database/placeholders';

/** A receipt row as issued, in the column order of COLUMNS. */
export type ReceiptRowValues = [
  id: string,
  accountId: string,
  wallet: string,
  operation: string,
  issuedMs: number,
  callKey: string,
  blockNumber: number,
  deadline: number,
  jws: string,
  executionState: 'pending',
];

const COLUMNS =
  'id, account_id, wallet, operation, issued_ms, call_key, block_number, deadline, jws, execution_state';
/** Rows per statement at most (10 parameters each: far below SQLite's and PostgreSQL's limits). */
const MAX_ROWS = 100;

interface Pending {
  values: ReceiptRowValues;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Receipts are written before the build answers (a receiptId is never handed out for a row that
 * does not exist), but the builds that reach this point in the same turn of the event loop share
 * one multi-row INSERT: one statement and one commit for all of them. On SQLite a commit is an
 * fsync of the WAL (synchronous=FULL), about 250 µs with the event loop blocked, measured with a
 * 7 KB row on the development VM: per receipt, that halved a busy service's throughput
 * (bench/receipts.md). Each build still waits for its own row; a failed statement fails every
 * build in it.
 */
@Injectable()
export class ReceiptInserts {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  insert(values: ReceiptRowValues): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ values, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, MAX_ROWS);
    if (this.queue.length > 0) setImmediate(() => void this.flush());
    else this.scheduled = false;
    const manager = this.dataSource.manager;
    const params: unknown[] = [];
    const mark = placeholders(manager);
    const rows = batch.map(
      ({ values }) => `(${values.map((value) => mark(params, value)).join(', ')})`,
    );
    try {
      await manager.query(
        `INSERT INTO compliance_receipts (${COLUMNS}) VALUES ${rows.join(', ')}`,
        params,
      );
      for (const pending of batch) pending.resolve();
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }
}
