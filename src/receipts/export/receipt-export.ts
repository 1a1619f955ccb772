/**
 * GET /api/v1/compliance/receipts/export: one receipt a line (NDJSON), streamed from the database
 * in keyset pages. The stream asks for the next page only when the response has taken the last one
 * (Readable.from with a high-water mark of one chunk: backpressure down to the socket), so memory
 * stays at about one page whatever the period holds (bench/receipts.ts measures both).
 */
import { Readable } from 'node:stream';
import type { EntityManager } from 'typeorm';
import { ndjsonPage, readReceiptRange, ReceiptRange } from '../receipt-rows';

/** About 2.6 MB of NDJSON a page (13 KB a line with its execution). */
export const EXPORT_PAGE_ROWS = 200;

export function receiptExportStream(
  manager: EntityManager,
  range: Omit<ReceiptRange, 'after' | 'limit'>,
  pageRows = EXPORT_PAGE_ROWS,
): Readable {
  async function* pages(): AsyncGenerator<Buffer> {
    let after: ReceiptRange['after'];
    for (;;) {
      const rows = await readReceiptRange(manager, { ...range, after, limit: pageRows });
      if (rows.length === 0) return;
      yield ndjsonPage(rows);
      if (rows.length < pageRows) return;
      const last = rows[rows.length - 1];
      after = { issuedMs: last.issuedMs, seq: last.seq };
    }
  }
  return Readable.from(pages(), { highWaterMark: 1 });
}
