import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { ApiError } from '../../common/errors/api-error';
import { authConfig, AuthConfig } from '../../config/auth.config';
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
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
  ) {}

  async consume(email: string, ip: string | undefined): Promise<void> {
    const limit = this.config.loginAttemptsPerMinute;
    // Hashed: the storage key must not carry an email address into Redis.
    const subject = createHash('sha256')
      .update(`${normalizeEmail(email)}|${ip ?? ''}`)
      .digest('hex')
      .slice(0, 32);
    const record = await this.storage.increment(
      `login:${subject}`,
      WINDOW_MS,
      limit,
      WINDOW_MS,
      'login',
    );
    if (record.totalHits <= limit) return;
    const retryAfter = Math.max(1, record.timeToExpire);
    throw new ApiError('RATE_LIMIT_EXCEEDED', `Too many login attempts; retry in ${retryAfter} s`, {
      hint: `Wait ${retryAfter} seconds before trying to log in again.`,
      extra: { retryAfter },
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}
