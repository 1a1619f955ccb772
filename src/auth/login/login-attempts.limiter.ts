import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { ApiError } from '../../common/errors/api-error';
import { AuthConfig } from '../../config/auth.config';
import { normalizeEmail } from '../users/users.service';

const WINDOW_MS = 60_000;

/**
 * Login attempts per email + client IP and minute, in the rate limiter's storage (Redis when
 * configured, so all instances share it). Counted before the password check: failures and
 * successes alike, so guessing cannot be spread across "successful" probes.
 */
@Injectable()
export class LoginAttemptsLimiter {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly config: AuthConfig,
  ) {}

  async consume(email: string, ip: string | undefined): Promise<void> {
    // Hashed: the storage key must not carry an email address into Redis.
    await this.count('login', `${normalizeEmail(email)}|${ip ?? ''}`, 'login attempts', 'log in');
  }

  /**
   * Attempts with one mailed token (an invitation, a sign-up confirmation), from any address, per
   * minute: counted before the token is looked up, so a known and an unknown token count alike.
   */
  async consumeToken(purpose: 'invitation' | 'signup', token: string): Promise<void> {
    const what = purpose === 'invitation' ? 'accept this invitation' : 'confirm this sign-up';
    await this.count(`token:${purpose}`, token, `attempts with this token`, what);
  }

  private async count(kind: string, subject: string, what: string, action: string) {
    const limit = this.config.loginAttemptsPerMinute;
    const digest = createHash('sha256').update(subject).digest('hex').slice(0, 32);
    const record = await this.storage.increment(
      `${kind}:${digest}`,
      WINDOW_MS,
      limit,
      WINDOW_MS,
      'login',
    );
    if (record.totalHits <= limit) return;
    const retryAfter = Math.max(1, record.timeToExpire);
    throw new ApiError('RATE_LIMIT_EXCEEDED', `Too many ${what}; retry in ${retryAfter} s`, {
      hint: `Wait ${retryAfter} seconds before trying to ${action} again.`,
      extra: { retryAfter },
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}
