import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttestationReaderService } from '../attestations/attestation-reader.service';
import { rowsOfCurrentSessions } from './current-sessions';
import type { RevocationCheck } from './revocation-checks';
import type { ScreenedWallet } from './sanctions-screen.service';

/**
 * "attestation_revoked": the wallet's current session was opened (or renewed) from an EAS
 * attestation (attestation_sessions) that EAS now shows revoked. Every screened session's
 * attestation is read in ONE Multicall3 eth_call per batch.
 */
@Injectable()
export class AttestationRevocationCheck implements RevocationCheck {
  readonly reason = 'attestation_revoked' as const;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly attestations: AttestationReaderService,
  ) {}

  async revoked(sessions: readonly ScreenedWallet[]): Promise<Set<string>> {
    const rows = await rowsOfCurrentSessions<{ wallet: string; uid: string }>(
      this.dataSource,
      sessions,
      { select: 't.wallet_address AS wallet, t.uid AS uid', from: 'attestation_sessions t' },
    );
    if (rows.length === 0) return new Set();
    const revoked = await this.attestations.revokedAttestations(rows.map((r) => r.uid));
    return new Set(rows.filter((r) => revoked.has(r.uid)).map((r) => r.wallet));
  }
}
