import type { DataSource } from 'typeorm';
import { placeholders } from '../../common/database/placeholders';
import type { ScreenedWallet } from './sanctions-screen.service';

/**
 * Rows of a table that records which source opened which session (`wallet_address`,
 * `session_until`: verify_challenges, attestation_sessions) matching each screened wallet's
 * CURRENT session (its on-chain activeUntil), filtered by `where`; one query per batch.
 * `select` and `where` are the caller's SQL over alias `t` (no user input in them).
 */
export async function rowsOfCurrentSessions<Row>(
  dataSource: DataSource,
  sessions: readonly ScreenedWallet[],
  query: { select: string; from: string; where?: string },
): Promise<Row[]> {
  if (sessions.length === 0) return [];
  const mark = placeholders(dataSource.manager);
  const params: unknown[] = [];
  const current = sessions
    .map(
      (s) =>
        `(t.wallet_address = ${mark(params, s.walletAddress)} AND t.session_until = ${mark(params, s.activeUntil)})`,
    )
    .join(' OR ');
  return (await dataSource.query(
    `SELECT ${query.select} FROM ${query.from}
      WHERE ${query.where ? `(${query.where}) AND ` : ''}(${current})`,
    params,
  )) as Row[];
}
