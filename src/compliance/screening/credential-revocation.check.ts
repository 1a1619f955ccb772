import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { placeholders } from '../../common/database/placeholders';
import type { RevocationCheck } from './revocation-checks';
import type { ScreenedWallet } from './sanctions-screen.service';

/**
 * "credential_revoked": the wallet's current session (its on-chain activeUntil) was opened by a
 * verified proof whose credential (nullifier) the issuer has revoked since. Sessions opened any
 * other way (the demo activation) have no credential and never match.
 */
@Injectable()
export class CredentialRevocationCheck implements RevocationCheck {
  readonly reason = 'credential_revoked' as const;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async revoked(sessions: readonly ScreenedWallet[]): Promise<Set<string>> {
    if (sessions.length === 0) return new Set();
    const mark = placeholders(this.dataSource.manager);
    const params: unknown[] = [];
    const current = sessions
      .map(
        (s) =>
          `(vc.wallet_address = ${mark(params, s.walletAddress)} AND vc.session_until = ${mark(params, s.activeUntil)})`,
      )
      .join(' OR ');
    const rows = (await this.dataSource.query(
      `SELECT DISTINCT vc.wallet_address AS wallet FROM verify_challenges vc
         JOIN issued_credentials ic ON ic.nullifier = vc.nullifier
        WHERE ic.revoked_at IS NOT NULL AND (${current})`,
      params,
    )) as Array<{ wallet: string }>;
    return new Set(rows.map((r) => r.wallet));
  }
}
