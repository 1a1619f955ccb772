import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { placeholders } from '../../common/database/placeholders';
import { ApiError } from '../../common/errors/api-error';
import { ComplianceConfig } from '../../config/compliance.config';

/** The window ACTIVATIONS_PER_WALLET_PER_HOUR counts in. */
export const ACTIVATION_WINDOW_MS = 60 * 60 * 1000;

/**
 * Issue 52: activation transactions per wallet, counted in the database (one atomic upsert per
 * activation that is about to send, so every replica counts in the same row) in a fixed window
 * that starts with the wallet's first counted activation. Over the limit: 429
 * ACTIVATION_RATE_LIMITED with Retry-After, and nothing is sent. Answers that send nothing (a
 * session still open: alreadyActive) are not counted: the throttle bounds the attester's spend,
 * the account's rate limit bounds requests.
 */
@Injectable()
export class ActivationThrottle {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: ComplianceConfig,
  ) {}

  async count(walletAddress: string, now = Date.now()): Promise<void> {
    const limit = this.config.activationsPerWalletPerHour;
    if (limit === 0) return;
    const { sends, windowStartedAt } = await this.hit(walletAddress, now);
    if (sends <= limit) return;
    const retryAfter = Math.max(
      1,
      Math.ceil((windowStartedAt + ACTIVATION_WINDOW_MS - now) / 1000),
    );
    throw new ApiError(
      'ACTIVATION_RATE_LIMITED',
      `Wallet ${walletAddress} was activated ${limit} times in the last hour: no activation is sent for ${retryAfter} s`,
      {
        extra: { retryAfter, limit, windowSeconds: ACTIVATION_WINDOW_MS / 1000 },
        headers: { 'Retry-After': String(retryAfter) },
      },
    );
  }

  /** One more activation of the wallet: its count and window start after this one. */
  private async hit(walletAddress: string, now: number) {
    const manager = this.dataSource.manager;
    const mark = placeholders(manager);
    const params: unknown[] = [];
    const wallet = mark(params, walletAddress);
    const start = mark(params, now);
    // Each marker binds one value (SQLite's `?` is positional): the condition is written twice.
    const expired = () =>
      `activation_windows.window_started_at <= ${mark(params, now - ACTIVATION_WINDOW_MS)}`;
    const rows = (await manager.query(
      `INSERT INTO activation_windows (wallet_address, window_started_at, sends)
       VALUES (${wallet}, ${start}, 1)
       ON CONFLICT (wallet_address) DO UPDATE SET
         sends = CASE WHEN ${expired()} THEN 1 ELSE activation_windows.sends + 1 END,
         window_started_at = CASE WHEN ${expired()} THEN excluded.window_started_at
                             ELSE activation_windows.window_started_at END
       RETURNING sends, window_started_at`,
      params,
    )) as Array<{ sends: number | string; window_started_at: number | string }>;
    return { sends: Number(rows[0].sends), windowStartedAt: Number(rows[0].window_started_at) };
  }
}
