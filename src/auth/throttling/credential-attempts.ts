import { Injectable } from '@nestjs/common';
import type { ApiError } from '../../common/errors/api-error';
import { LoginAttemptsLimiter } from '../login/login-attempts.limiter';
import { FailedAuthThrottle } from './failed-auth.throttle';

/** What an attempt presents: an email (with a password) or a mailed single-use token. */
export type AttemptSubject =
  { email: string } | { token: string; purpose: 'invitation' | 'signup' };

/**
 * The one order every public route that takes a password or a mailed token throttles in (login,
 * sign-up and its confirmation, invitation preview and acceptance): the IP's failed-attempt
 * budget first, then the subject's own limit (per email, or per token).
 */
@Injectable()
export class CredentialAttempts {
  constructor(
    private readonly limiter: LoginAttemptsLimiter,
    private readonly failures: FailedAuthThrottle,
  ) {}

  /**
   * Admits one attempt or throws RATE_LIMIT_EXCEEDED. `counted`: the attempt itself counts
   * against the IP, for routes whose answer does not say whether it succeeded (sign-up, a token
   * redeemed); the others report a failure with refuse().
   */
  async admit(subject: AttemptSubject, ip: string | undefined, counted: boolean): Promise<void> {
    this.failures.assertAllowed('login', ip);
    if ('email' in subject) await this.limiter.consume(subject.email, ip);
    else await this.limiter.consumeToken(subject.purpose, subject.token);
    if (counted) await this.failures.countAttempt('login', ip);
  }

  /** Counts a failed attempt against the IP and returns the error to throw (or the block's). */
  refuse(ip: string | undefined, failure: ApiError): Promise<ApiError> {
    return this.failures.recordFailure('login', ip, failure);
  }
}
