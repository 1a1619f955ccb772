import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { RawLog } from '../../chain/chain-rpc.service';
import { NetworkService } from '../../chain/network/network.service';
import { placeholders } from '../../common/database/placeholders';
import { callKeyOf } from '../call-key';
import { ComplianceReceipt } from '../receipt.entity';
import { payloadJsonOf } from '../receipt-rows';
import {
  EXECUTION_TYP,
  ExecutionPayload,
  ReceiptExecution,
  ReceiptPayload,
} from '../receipt.types';
import { ReceiptSigner } from '../signing/receipt-signer';
import { deviationsOf, ethSentBy, executedBalanceChanges } from './execution-effects';

/** A mined transaction as the chain shows it (receipt and transaction), for one receipt. */
export interface MinedView {
  txHash: string;
  blockNumber: number;
  status: 'success' | 'reverted';
  gasUsed: bigint;
  /** Its sender: the receipt's wallet, or an owner or relayer of the receipt's Safe. */
  from: string;
  /** The ETH sent with it (none with a Safe's execTransaction). */
  value: bigint;
  logs: readonly RawLog[];
  relayed: boolean;
}

/** An execution signed and ready to record (ReceiptExecutionsService.record). */
export interface SignedExecution {
  receiptId: string;
  txHash: string;
  execution: string;
  executionJws: string;
}

/**
 * The second half of a receipt: which receipt a mined transaction answers, what it did (decoded
 * from its logs, compared with the simulation), signed as its own JWS chained to the receipt's by
 * digest, and recorded once.
 */
@Injectable()
export class ReceiptExecutionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly signer: ReceiptSigner,
    private readonly network: NetworkService,
  ) {}

  /** The latest receipt of the account, not yet executed, whose built transaction is `tx`. */
  async receiptIdFor(
    accountId: string,
    tx: { from: string; to: string; value: bigint; data: string },
  ): Promise<string | null> {
    const manager = this.dataSource.manager;
    const params: unknown[] = [];
    const mark = placeholders(manager);
    const rows = (await manager.query(
      `SELECT id FROM compliance_receipts WHERE call_key = ${mark(params, callKeyOf(tx))} ` +
        `AND account_id = ${mark(params, accountId)} AND execution_state <> 'executed' ` +
        'ORDER BY seq DESC LIMIT 1',
      params,
    )) as Array<{ id: string }>;
    return rows.length > 0 ? String(rows[0].id) : null;
  }

  /** Its transaction went through the relay: the relay's watcher records it, not the chain watch. */
  async markRelayed(receiptId: string): Promise<void> {
    await this.dataSource.manager
      .createQueryBuilder()
      .update(ComplianceReceipt)
      .set({ executionState: 'relayed' })
      .where('id = :id AND execution_state <> :executed', { id: receiptId, executed: 'executed' })
      .execute();
  }

  /** Its relay failed to send it: the wallet may still send it itself, for the chain watch. */
  async unmarkRelayed(receiptId: string): Promise<void> {
    await this.dataSource.manager
      .createQueryBuilder()
      .update(ComplianceReceipt)
      .set({ executionState: 'pending' })
      .where('id = :id AND execution_state = :relayed', { id: receiptId, relayed: 'relayed' })
      .execute();
  }

  /** What `mined` did for receipt `receiptId`, signed; null when there is no such receipt. */
  async sign(receiptId: string, mined: MinedView): Promise<SignedExecution | null> {
    const jws = await this.issuedJws(receiptId);
    if (jws === null) return null;
    const receipt = JSON.parse(payloadJsonOf(jws)) as ReceiptPayload;
    const execution = this.executionOf(receipt, mined);
    const payload: ExecutionPayload = {
      receiptId,
      receiptDigest: createHash('sha256').update(jws).digest('base64url'),
      execution,
      observedAt: new Date().toISOString(),
    };
    return {
      receiptId,
      txHash: mined.txHash,
      execution: JSON.stringify(execution),
      executionJws: this.signer.sign(JSON.stringify(payload), EXECUTION_TYP),
    };
  }

  /** The receipt's JWS as issued, or null when there is no such receipt. */
  private async issuedJws(receiptId: string): Promise<string | null> {
    const manager = this.dataSource.manager;
    const params: unknown[] = [];
    const mark = placeholders(manager);
    const rows = (await manager.query(
      `SELECT jws FROM compliance_receipts WHERE id = ${mark(params, receiptId)}`,
      params,
    )) as Array<{ jws: string }>;
    return rows.length > 0 ? String(rows[0].jws) : null;
  }

  /**
   * What `mined` did to the receipt's wallet (a Safe's when an owner or a relayer sent its
   * execTransaction, not the sender's), compared with the receipt's simulation.
   */
  private executionOf(receipt: ReceiptPayload, mined: MinedView): ReceiptExecution {
    const { contracts, tokens } = this.network.definition;
    const balanceChanges = executedBalanceChanges(
      {
        wallet: receipt.wallet,
        ethSent: ethSentBy(receipt.wallet, mined, receipt.transaction),
        status: mined.status,
        logs: mined.logs,
      },
      { weth: tokens.WETH.address, universalRouter: contracts.universalRouter },
    );
    const succeeded = mined.status === 'success';
    const deviations = succeeded
      ? deviationsOf(receipt.simulation.balanceChanges, balanceChanges, receipt.tolerance)
      : [];
    return {
      txHash: mined.txHash,
      blockNumber: mined.blockNumber,
      status: mined.status,
      balanceChanges,
      gasUsed: mined.gasUsed.toString(),
      relayed: mined.relayed,
      // A simulation that did not run (or reverted) promised nothing to compare with.
      withinSlippage:
        succeeded && receipt.simulation.status === 'success' ? deviations.length === 0 : null,
      deviations,
    };
  }

  /**
   * Records a signed execution once (one conditional UPDATE: the first transaction seen for the
   * receipt wins), in `manager`'s transaction when given. Answers whether this call recorded it.
   */
  async record(signed: SignedExecution, manager?: EntityManager): Promise<boolean> {
    const result = await (manager ?? this.dataSource.manager)
      .createQueryBuilder()
      .update(ComplianceReceipt)
      .set({
        executionState: 'executed',
        txHash: signed.txHash,
        execution: signed.execution,
        executionJws: signed.executionJws,
      })
      .where('id = :id AND execution_state <> :executed', {
        id: signed.receiptId,
        executed: 'executed',
      })
      .execute();
    return result.affected === 1;
  }
}
