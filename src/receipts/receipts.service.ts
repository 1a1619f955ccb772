import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { v7 as timeOrderedUuid } from 'uuid';
import { checksumAddress } from '../common/address/checksum-address';
import { ApiError } from '../common/errors/api-error';
import { callKeyOf } from './call-key';
import { SessionOpeningsService } from './openings/session-openings';
import { receiptPayload } from './receipt-document';
import { RECEIPT_TYP, ReceiptDraft } from './receipt.types';
import { readReceipt, readReceiptRange, ReceiptView, viewOf } from './receipt-rows';
import { ReceiptSigner } from './signing/receipt-signer';
import { ReceiptInserts } from './receipt-inserts';

export const RECEIPT_PAGE_DEFAULT = 50;
export const RECEIPT_PAGE_MAX = 200;

export interface ReceiptFilter {
  from?: Date;
  to?: Date;
  wallet?: string;
  /** A receipt id: the receipts issued after it. */
  after?: string;
  limit?: number;
}

/** Issues receipts (sign, then store as issued) and reads them back for their account. */
@Injectable()
export class ReceiptsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly signer: ReceiptSigner,
    private readonly openings: SessionOpeningsService,
    private readonly inserts: ReceiptInserts,
  ) {}

  /**
   * Completes the draft with the session's opening, signs it and stores the JWS as issued: the
   * opening read by wallet, and the insert, shared with the builds of the same turn
   * (ReceiptInserts). Answers the receipt's id once its row is written.
   */
  async issue(draft: ReceiptDraft): Promise<string> {
    const id = timeOrderedUuid();
    const issuedAt = new Date();
    const opening = draft.session.active
      ? await this.openings.openingFor(draft.wallet, draft.session.activeUntil)
      : null;
    const payload = receiptPayload(id, draft, opening, issuedAt);
    const jws = this.signer.sign(JSON.stringify(payload), RECEIPT_TYP);
    const { transaction } = draft;
    await this.inserts.insert([
      id,
      draft.accountId,
      draft.wallet,
      draft.operation,
      issuedAt.getTime(),
      callKeyOf({ from: draft.wallet, ...transaction }),
      draft.simulation.blockNumber,
      draft.deadline,
      jws,
      'pending',
    ]);
    return id;
  }

  async view(accountId: string, id: string): Promise<ReceiptView> {
    const row = await readReceipt(this.dataSource.manager, accountId, id);
    if (!row) throw receiptNotFound(id);
    return viewOf(row);
  }

  /** Oldest first within [from, to), after the receipt `after`; nextAfter when more follow. */
  async list(accountId: string, filter: ReceiptFilter) {
    const limit = filter.limit ?? RECEIPT_PAGE_DEFAULT;
    const manager = this.dataSource.manager;
    const after =
      filter.after === undefined ? undefined : await this.positionOf(accountId, filter.after);
    const rows = await readReceiptRange(manager, {
      accountId,
      wallet: filter.wallet === undefined ? undefined : checksumAddress(filter.wallet),
      fromMs: filter.from?.getTime(),
      toMs: filter.to?.getTime(),
      after,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    return {
      items: page.map(viewOf),
      nextAfter: rows.length > limit ? page[page.length - 1].id : null,
    };
  }

  /** The keyset position of a receipt of this account (the `after` of a listing). */
  async positionOf(accountId: string, id: string): Promise<{ issuedMs: number; seq: number }> {
    const row = await readReceipt(this.dataSource.manager, accountId, id);
    if (!row)
      throw new ApiError('INVALID_PARAMS', 'after is not the id of a receipt of this account', {
        hint: 'Pass the id of the last receipt you received (nextAfter of the previous page).',
        details: [
          { field: 'after', constraint: 'isReceiptId', message: 'after is not a known receipt id' },
        ],
      });
    return { issuedMs: row.issuedMs, seq: row.seq };
  }
}

function receiptNotFound(id: string): ApiError {
  return new ApiError('NOT_FOUND', `No receipt ${id} in your account`, {
    hint: 'Use the receiptId of a build response of this account, or list them with GET /api/v1/compliance/receipts.',
  });
}
