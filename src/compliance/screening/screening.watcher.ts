import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { withAdvisoryLock } from '../../common/database/advisory-lock';
import { ItemBackoff } from '../../common/scheduling/item-backoff';
import { PeriodicScan } from '../../common/scheduling/periodic-scan';
import { ComplianceConfig } from '../../config/compliance.config';
import { SYSTEM_ACTOR } from '../../events/activity-event';
import { Metrics } from '../../metrics/metrics.service';
import { AttesterService, SessionRevocationReason } from '../sessions/attester.service';
import { REVOCATION_CHECKS, RevocationCheck } from './revocation-checks';
import { SanctionsScreen, ScreenedWallet } from './sanctions-screen.service';

/** Wallets read per Multicall3 eth_call (session + oracle answer each). */
const SCREEN_BATCH = 200;
/** A wallet whose revocation failed is tried again after 5 s, 10 s, ... at most every 5 min. */
const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 300_000;

export interface ScreeningPass {
  /** False when another instance held the screening lock (PostgreSQL) this round. */
  ran: boolean;
  screened: number;
  revoked: Array<{ walletAddress: string; reason: SessionRevocationReason; txHash: string }>;
}

/**
 * The screening watcher: every SCREENING_INTERVAL_MS (0 = off), every bound wallet's session and
 * the sanctions oracle's answer are read in batched eth_calls; each wallet with an active session
 * goes through every RevocationCheck (sanctions first, then the sources that open sessions), and
 * the first that says so revokes the session on chain through the registry (attester), recording
 * session.revoked with that reason (webhook + audit trail). Several replicas: the pass runs under
 * a PostgreSQL advisory lock and re-reads the chain under it, so one revocation per wallet.
 */
@Injectable()
export class ScreeningWatcher extends PeriodicScan<ScreeningPass> {
  private readonly backoff = new ItemBackoff(RETRY_BASE_MS, RETRY_MAX_MS);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly screen: SanctionsScreen,
    private readonly attester: AttesterService,
    @Inject(REVOCATION_CHECKS) private readonly checks: RevocationCheck[],
    private readonly config: ComplianceConfig,
    private readonly metrics: Metrics,
  ) {
    super(config.screeningIntervalMs);
    metrics.screeningInterval.set(config.screeningIntervalMs / 1000);
  }

  protected override failedPass(): ScreeningPass {
    return { ran: false, screened: 0, revoked: [] };
  }

  protected async scan(): Promise<ScreeningPass> {
    const pass = await withAdvisoryLock(this.dataSource, 'sanctions-screening', () => this.pass(), {
      ran: false,
      screened: 0,
      revoked: [],
    });
    // Freshness (cgk_screening_last_success_timestamp_seconds): every wallet was read and judged.
    // A revocation that could not be mined is owed and measured apart (RevocationRetry).
    if (pass.ran) this.metrics.screeningLastSuccess.set(Date.now() / 1000);
    return pass;
  }

  private async pass(): Promise<ScreeningPass> {
    const rows = (await this.dataSource.query(
      'SELECT address FROM wallets ORDER BY address',
    )) as Array<{ address: string }>;
    const outcome: ScreeningPass = { ran: true, screened: 0, revoked: [] };
    for (let i = 0; i < rows.length; i += SCREEN_BATCH) {
      const batch = rows.slice(i, i + SCREEN_BATCH).map((r) => r.address);
      const active = (await this.screen.screen(batch)).filter((s) => s.active);
      outcome.screened += active.length;
      const verdicts = new Map<string, SessionRevocationReason>();
      for (const check of this.checks) {
        const undecided = active.filter((s) => !verdicts.has(s.walletAddress));
        for (const wallet of await check.revoked(undecided))
          if (!verdicts.has(wallet)) verdicts.set(wallet, check.reason);
      }
      const due = active.filter((s) => verdicts.has(s.walletAddress));
      await this.eachReady(
        due,
        {
          backoff: this.backoff,
          limit: due.length,
          keyOf: (s) => s.walletAddress,
          describe: (s) => ({ walletAddress: s.walletAddress }),
          failure: 'session not revoked by the screening watcher; retrying later',
        },
        async (s: ScreenedWallet) => {
          const reason = verdicts.get(s.walletAddress)!;
          const mined = await this.attester.revoke(s.walletAddress, reason, SYSTEM_ACTOR);
          this.logger.warn(
            { walletAddress: s.walletAddress, reason, txHash: mined.txHash },
            'Session revoked by screening',
          );
          outcome.revoked.push({ walletAddress: s.walletAddress, reason, txHash: mined.txHash });
          return true;
        },
      );
    }
    return outcome;
  }
}
