/**
 * The receipts table's reads, shared by GET, the listing and the export: one keyset query
 * (account, optional wallet, issued_ms range, then (issued_ms, seq) after a position) and the
 * rendering of a row as `{ id, jws, receipt, executionJws }`, where `receipt` is the signed
 * document (the JWS payload, as signed) with `execution` added once there is one.
 */
import type { EntityManager } from 'typeorm';
import { placeholders } from '../common/database/placeholders';
import type { ReceiptExecution, ReceiptPayload } from './receipt.types';

export interface ReceiptRow {
  seq: number;
  id: string;
  issuedMs: number;
  jws: string;
  execution: string | null;
  executionJws: string | null;
}

export interface ReceiptRange {
  accountId: string;
  wallet?: string;
  fromMs?: number;
  toMs?: number;
  /** Rows strictly after this (issued_ms, seq). */
  after?: { issuedMs: number; seq: number };
  limit: number;
}

const COLUMNS = 'seq, id, issued_ms, jws, execution, execution_jws';

function rowOf(raw: Record<string, unknown>): ReceiptRow {
  return {
    seq: Number(raw.seq),
    id: String(raw.id),
    issuedMs: Number(raw.issued_ms),
    jws: String(raw.jws),
    execution: raw.execution === null ? null : String(raw.execution),
    executionJws: raw.execution_jws === null ? null : String(raw.execution_jws),
  };
}

/** One page of the range, oldest first: an index range scan of `limit` rows, however long the history. */
export async function readReceiptRange(
  manager: EntityManager,
  range: ReceiptRange,
): Promise<ReceiptRow[]> {
  const params: unknown[] = [];
  const mark = placeholders(manager);
  const where = [`account_id = ${mark(params, range.accountId)}`];
  if (range.wallet !== undefined) where.push(`wallet = ${mark(params, range.wallet)}`);
  // One lower bound, the later of `from` and the position: with both, SQLite may start the range
  // scan at `from` and walk every page an export already read.
  const { after, fromMs } = range;
  if (after && (fromMs === undefined || after.issuedMs >= fromMs))
    where.push(`(issued_ms, seq) > (${mark(params, after.issuedMs)}, ${mark(params, after.seq)})`);
  else if (fromMs !== undefined) where.push(`issued_ms >= ${mark(params, fromMs)}`);
  if (range.toMs !== undefined) where.push(`issued_ms < ${mark(params, range.toMs)}`);
  const rows = (await manager.query(
    `SELECT ${COLUMNS} FROM compliance_receipts WHERE ${where.join(' AND ')} ` +
      `ORDER BY issued_ms, seq LIMIT ${Math.floor(range.limit)}`,
    params,
  )) as Array<Record<string, unknown>>;
  return rows.map(rowOf);
}

/** One receipt of the account by id, or null. */
export async function readReceipt(
  manager: EntityManager,
  accountId: string,
  id: string,
): Promise<ReceiptRow | null> {
  const params: unknown[] = [];
  const mark = placeholders(manager);
  const rows = (await manager.query(
    `SELECT ${COLUMNS} FROM compliance_receipts WHERE id = ${mark(params, id)} AND account_id = ${mark(params, accountId)}`,
    params,
  )) as Array<Record<string, unknown>>;
  return rows.length > 0 ? rowOf(rows[0]) : null;
}

/** The JWS payload as signed: the document's JSON text. */
export function payloadJsonOf(jws: string): string {
  const first = jws.indexOf('.');
  const second = jws.indexOf('.', first + 1);
  return Buffer.from(jws.slice(first + 1, second), 'base64url').toString('utf8');
}

export interface ReceiptView {
  id: string;
  jws: string;
  receipt: ReceiptPayload & { execution?: ReceiptExecution };
  executionJws: string | null;
}

export function viewOf(row: ReceiptRow): ReceiptView {
  const receipt = JSON.parse(payloadJsonOf(row.jws)) as ReceiptView['receipt'];
  if (row.execution !== null) receipt.execution = JSON.parse(row.execution) as ReceiptExecution;
  return { id: row.id, jws: row.jws, receipt, executionJws: row.executionJws };
}

/**
 * A page of the export: each row as one NDJSON line of the same view, written into one buffer. The
 * payload goes in as the JWS carries it, base64url-decoded straight into the buffer (never parsed,
 * stringified or re-encoded), with the execution spliced in before its closing brace; the rest is
 * ASCII. One allocation a page: building strings and encoding them cost about twice the CPU a
 * row, and a Buffer a piece made the garbage collector chase external memory
 * (bench/receipts.md, "The export").
 */
export function ndjsonPage(rows: readonly ReceiptRow[]): Buffer {
  const parts = rows.map((row) => {
    const first = row.jws.indexOf('.');
    const second = row.jws.indexOf('.', first + 1);
    const encoded = row.jws.slice(first + 1, second);
    const payloadBytes = Math.floor((encoded.length * 3) / 4);
    const head = `{"id":"${row.id}","jws":"${row.jws}","receipt":`;
    const execution = row.execution === null ? '' : `,"execution":${row.execution}}`;
    const tail =
      row.executionJws === null
        ? ',"executionJws":null}\n'
        : `,"executionJws":"${row.executionJws}"}\n`;
    return { head, encoded, payloadBytes, execution, tail };
  });
  let size = 0;
  for (const p of parts)
    size +=
      p.head.length +
      p.payloadBytes -
      (p.execution ? 1 : 0) +
      Buffer.byteLength(p.execution, 'utf8') +
      p.tail.length;
  const page = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of parts) {
    at += page.write(p.head, at, 'latin1');
    const written = page.write(p.encoded, at, 'base64url');
    // With an execution, its text replaces the payload's closing brace.
    at += p.execution ? written - 1 : written;
    at += page.write(p.execution, at, 'utf8');
    at += page.write(p.tail, at, 'latin1');
  }
  return page.subarray(0, at);
}
