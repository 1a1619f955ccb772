import { DataSource, LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { isUniqueViolation } from '../../common/database/unique-violation';
import { ApiError } from '../../common/errors/api-error';
import type { MfaConfig } from '../../config/mfa.config';
import { MfaFailure } from './mfa-failure.entity';

/**
 * Per-user limit on one-time codes, across every client address and replica (the table is the
 * counter): at most `maxFailures` codes are tried per window, counted from the window's first
 * one. A code is counted before it is checked (a conditional UPDATE takes a slot, so parallel
 * attempts cannot overshoot), and an accepted code clears the count. Once the slots are used,
 * every code, the right one included, is refused with 429 until the window ends.
 */
export class MfaLockout {
  private readonly failures: Repository<MfaFailure>;

  constructor(
    dataSource: DataSource,
    private readonly config: MfaConfig,
  ) {
    this.failures = dataSource.getRepository(MfaFailure);
  }

  /** Takes one attempt of this user's window, or throws 429 RATE_LIMIT_EXCEEDED when none is left. */
  async take(userId: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const now = new Date();
      const windowStart = new Date(now.getTime() - this.config.lockoutSeconds * 1000);
      const counted = await this.failures
        .createQueryBuilder()
        .update(MfaFailure)
        .set({ failures: () => 'failures + 1' })
        .where({
          userId,
          windowStartedAt: MoreThan(windowStart),
          failures: LessThanOrEqual(this.config.maxFailures - 1),
        })
        .execute();
      if (counted.affected === 1) return;
      const restarted = await this.failures.update(
        { userId, windowStartedAt: LessThanOrEqual(windowStart) },
        { failures: 1, windowStartedAt: now },
      );
      if (restarted.affected === 1) return;
      const current = await this.failures.findOneBy({ userId });
      if (current) {
        const endsAt = current.windowStartedAt.getTime() + this.config.lockoutSeconds * 1000;
        if (current.failures >= this.config.maxFailures && endsAt > Date.now())
          throw locked(Math.max(1, Math.ceil((endsAt - Date.now()) / 1000)));
        continue; // changed between the updates and this read: count again
      }
      try {
        await this.failures.insert({ userId, failures: 1, windowStartedAt: now });
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    // Only under constant contention on one user's row: refuse rather than check unthrottled.
    throw locked(1);
  }

  /** An accepted code: the user's count starts over. */
  async clear(userId: string): Promise<void> {
    await this.failures.delete({ userId });
  }

  /** Runs `check` on one attempt; clears the count when it accepts the code (a truthy result). */
  async attempt<T>(userId: string, check: () => Promise<T>): Promise<T> {
    await this.take(userId);
    const result = await check();
    if (result) await this.clear(userId);
    return result;
  }
}

function locked(retryAfter: number): ApiError {
  return new ApiError(
    'RATE_LIMIT_EXCEEDED',
    `Too many wrong one-time codes for this user; retry in ${retryAfter} s`,
    {
      hint: `Wait ${retryAfter} seconds, then send the current code from the authenticator app or an unused recovery code. Every code is refused until then, from any address.`,
      extra: { retryAfter },
      headers: { 'Retry-After': String(retryAfter) },
    },
  );
}
