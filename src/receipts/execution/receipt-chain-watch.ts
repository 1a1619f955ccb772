import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  ChainRevertError,
  ChainRpcService,
  RawReceipt,
  RawTransaction,
} from '../../chain/chain-rpc.service';
import { NetworkService } from '../../chain/network/network.service';
import { placeholders } from '../../common/database/placeholders';
import { PeriodicScan } from '../../common/scheduling/periodic-scan';
import { ReceiptsConfig } from '../../config/receipts.config';
import { callKeyOf } from '../call-key';
import { ReceiptExecutionsService } from './receipt-executions.service';

/** Blocks read per pass (one JSON-RPC batch each): a restart catches up at this pace. */
export const WATCH_BLOCKS_PER_PASS = 50;
const BLOCKS_PER_BATCH = 10;

interface RawBlock {
  number: string;
  timestamp: string;
  transactions: RawTransaction[];
}

/**
 * Receipts of transactions the wallet sent itself (not through the relay): while receipts wait
 * for their transaction, every RECEIPT_WATCH_INTERVAL_MS the new blocks are read (full
 * transactions, batched), each transaction to the UniversalRouter or the PositionManager is
 * matched against the waiting receipts by its call key (sender, target, value, calldata), and a
 * match gets its execution. A receipt whose deadline a scanned block passed can no longer be
 * executed: it stops waiting (`expired`). Each instance scans on its own; recording is once.
 */
@Injectable()
export class ReceiptChainWatch extends PeriodicScan {
  /** The last block this instance scanned; null: start from the oldest waiting receipt. */
  private scanned: number | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rpc: ChainRpcService,
    private readonly network: NetworkService,
    private readonly executions: ReceiptExecutionsService,
    config: ReceiptsConfig,
  ) {
    super(config.watchIntervalMs);
  }

  protected async scan(): Promise<number> {
    const oldest = await this.oldestWaitingBlock();
    if (oldest === null) {
      this.scanned = null;
      return 0;
    }
    const head = await this.rpc.blockNumber();
    const from = Math.max(oldest, this.scanned ?? oldest) + 1;
    const to = Math.min(head, from + WATCH_BLOCKS_PER_PASS - 1);
    let recorded = 0;
    for (let start = from; start <= to; start += BLOCKS_PER_BATCH) {
      const blocks = await this.blocks(start, Math.min(to, start + BLOCKS_PER_BATCH - 1));
      for (const block of blocks) {
        recorded += await this.matchBlock(block);
        await this.expireBefore(Number(block.timestamp));
        this.scanned = Number(block.number);
      }
    }
    return recorded;
  }

  private async oldestWaitingBlock(): Promise<number | null> {
    const rows = (await this.dataSource.manager.query(
      "SELECT MIN(block_number) AS oldest FROM compliance_receipts WHERE execution_state = 'pending'",
    )) as Array<{ oldest: string | number | null }>;
    return rows[0]?.oldest === null || rows[0]?.oldest === undefined
      ? null
      : Number(rows[0].oldest);
  }

  private async blocks(from: number, to: number): Promise<RawBlock[]> {
    const calls = [];
    for (let n = from; n <= to; n += 1)
      calls.push({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, true] });
    const answers = await this.rpc.batch(calls);
    return answers.flatMap((answer) => {
      if (!answer.ok) throw answer.error;
      return answer.result ? [answer.result as RawBlock] : [];
    });
  }

  /** The block's transactions that are waiting receipts' builds, given their execution. */
  private async matchBlock(block: RawBlock): Promise<number> {
    const { universalRouter, positionManager } = this.network.definition.contracts;
    const targets = new Set([universalRouter.toLowerCase(), positionManager.toLowerCase()]);
    const candidates = new Map<string, RawTransaction>();
    for (const tx of block.transactions)
      if (tx.to && targets.has(tx.to.toLowerCase()))
        candidates.set(
          callKeyOf({ from: tx.from, to: tx.to, value: tx.value, data: tx.input }),
          tx,
        );
    if (candidates.size === 0) return 0;
    const manager = this.dataSource.manager;
    const params: unknown[] = [];
    const mark = placeholders(manager);
    const keys = [...candidates.keys()].map((key) => mark(params, key)).join(', ');
    const waiting = (await manager.query(
      `SELECT id, call_key FROM compliance_receipts WHERE call_key IN (${keys}) ` +
        "AND execution_state = 'pending' ORDER BY seq DESC",
      params,
    )) as Array<{ id: string; call_key: string }>;
    let recorded = 0;
    const answered = new Set<string>();
    for (const { id, call_key: key } of waiting) {
      if (answered.has(key)) continue; // the latest receipt of a build sent twice
      answered.add(key);
      const tx = candidates.get(key)!;
      const receipt = await this.receiptOf(tx.hash);
      if (!receipt) continue;
      const signed = await this.executions.sign(String(id), {
        txHash: tx.hash.toLowerCase(),
        blockNumber: Number(block.number),
        status: BigInt(receipt.status) === 1n ? 'success' : 'reverted',
        gasUsed: BigInt(receipt.gasUsed),
        from: tx.from,
        value: BigInt(tx.value),
        logs: receipt.logs,
        relayed: false,
      });
      if (signed && (await this.executions.record(signed))) recorded += 1;
    }
    return recorded;
  }

  private async receiptOf(hash: string): Promise<RawReceipt | null> {
    try {
      return await this.rpc.transactionReceipt(hash);
    } catch (err) {
      if (err instanceof ChainRevertError) return null;
      throw err;
    }
  }

  /** Receipts whose transaction can no longer be mined (deadline before a scanned block's time). */
  private async expireBefore(blockTimestamp: number): Promise<void> {
    const manager = this.dataSource.manager;
    const params: unknown[] = [];
    const mark = placeholders(manager);
    await manager.query(
      "UPDATE compliance_receipts SET execution_state = 'expired' " +
        `WHERE execution_state = 'pending' AND deadline < ${mark(params, blockTimestamp)}`,
      params,
    );
  }
}
