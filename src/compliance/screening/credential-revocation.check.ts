import { DataSource } from 'typeorm';
import type { SessionRevocationReason } from '../sessions/attester.service';
import { rowsOfCurrentSessions } from './current-sessions';
import type { RevocationCheck } from './revocation-checks';
import type { ScreenedWallet } from './sanctions-screen.service';

/**
 * A check answered by the database alone: the wallets whose current session was opened by a
 * verified proof (verify_challenges, alias `t`) joined as `from` says, where `where` holds.
 */
export interface ProofSessionRule {
  reason: SessionRevocationReason;
  from: string;
  where: string;
}

/**
 * "credential_revoked": the wallet's current session (its on-chain activeUntil) was opened by a
 * verified proof whose credential (nullifier) the issuer has revoked since. Sessions opened any
 * other way (the demo activation) have no credential and never match.
 */
export const CREDENTIAL_REVOKED: ProofSessionRule = {
  reason: 'credential_revoked',
  from: 'verify_challenges t JOIN issued_credentials ic ON ic.nullifier = t.nullifier',
  where: 'ic.revoked_at IS NOT NULL',
};

/**
 * "issuer_revoked": the wallet's current session was opened by a proof of a credential whose
 * issuer (verify_challenges.issuer_name) the operator has revoked since (`cli issuers revoke`).
 * The CLI ends those sessions itself; this catches any it could not (a failed transaction, a
 * revocation written while the command's ending was interrupted) within one interval.
 */
export const ISSUER_REVOKED: ProofSessionRule = {
  reason: 'issuer_revoked',
  from: 'verify_challenges t JOIN credential_issuers ci ON ci.name = t.issuer_name',
  where: 'ci.revoked_at IS NOT NULL',
};

export class ProofSessionCheck implements RevocationCheck {
  readonly reason: SessionRevocationReason;

  constructor(
    private readonly dataSource: DataSource,
    private readonly rule: ProofSessionRule,
  ) {
    this.reason = rule.reason;
  }

  async revoked(sessions: readonly ScreenedWallet[]): Promise<Set<string>> {
    const rows = await rowsOfCurrentSessions<{ wallet: string }>(this.dataSource, sessions, {
      select: 'DISTINCT t.wallet_address AS wallet',
      from: this.rule.from,
      where: this.rule.where,
    });
    return new Set(rows.map((r) => r.wallet));
  }
}
