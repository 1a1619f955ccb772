import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { ApiError } from '../../common/errors/api-error';
import { AuthConfig } from '../../config/auth.config';

const WINDOW_MS = 60_000;

export type FailedAuthKind = 'login' | 'api_key';

/**
 * Failed authentications per client IP (req.ip: see TRUST_PROXY), in the rate limiter's storage
 * (Redis when configured, so all instances add up; memory otherwise). Only failures are counted;
 * once an IP is over its limit, this instance refuses its attempts of that kind before any work
 * (no argon2, no key lookup) until the window ends, so a flood costs a map lookup per request.
 */
@Injectable()
export class FailedAuthThrottle {
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly config: AuthConfig,
  ) {}

  /**
   * Whether any IP is refused now: while none is, a caller need not work out its client's address
   * (req.ip parses X-Forwarded-For under TRUST_PROXY) on every request.
   */
  get refusesAny(): boolean {
    return this.blockedUntil.size > 0;
  }

  /** Throws 429 when this IP is already over its limit of failures of this kind. */
  assertAllowed(kind: FailedAuthKind, ip: string | undefined): void {
    const key = subject(kind, ip);
    const until = this.blockedUntil.get(key);
    if (until === undefined) return;
    const now = Date.now();
    if (until <= now) {
      this.blockedUntil.delete(key);
      return;
    }
    throw tooMany(kind, Math.max(1, Math.ceil((until - now) / 1000)));
  }

  /**
   * Counts one failure; returns the error to answer instead of `failure` once the IP is over the
   * limit (the failure itself otherwise).
   */
  async recordFailure(kind: FailedAuthKind, ip: string | undefined, failure: ApiError) {
    const limit =
      kind === 'login'
        ? this.config.failedLoginsPerIpPerMinute
        : this.config.failedApiKeysPerIpPerMinute;
    const key = subject(kind, ip);
    const record = await this.storage.increment(key, WINDOW_MS, limit, WINDOW_MS, 'auth-failures');
    if (record.totalHits <= limit) return failure;
    const retryAfter = Math.max(1, record.timeToExpire);
    this.blockedUntil.set(key, Date.now() + retryAfter * 1000);
    this.sweep();
    return tooMany(kind, retryAfter);
  }

  /**
   * Counts an attempt that proves nothing yet (a sign-up, an invitation acceptance, a sign-up
   * confirmation) as a failure of its IP, whatever its outcome: the throttle then says nothing
   * about which emails have a login. Throws 429 once the IP is over its limit.
   */
  async countAttempt(kind: FailedAuthKind, ip: string | undefined): Promise<void> {
    this.assertAllowed(kind, ip);
    const placeholder = new ApiError('INVALID_CREDENTIALS', 'counted');
    const outcome = await this.recordFailure(kind, ip, placeholder);
    if (outcome !== placeholder) throw outcome;
  }

  private sweep(): void {
    if (this.blockedUntil.size < 10_000) return;
    const now = Date.now();
    for (const [key, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(key);
  }
}

function subject(kind: FailedAuthKind, ip: string | undefined): string {
  return `authfail:${kind}:${ip ?? 'unknown'}`;
}

function tooMany(kind: FailedAuthKind, retryAfter: number): ApiError {
  const what = kind === 'login' ? 'failed logins' : 'refused API keys';
  return new ApiError(
    'RATE_LIMIT_EXCEEDED',
    `Too many ${what} from your address; retry in ${retryAfter} s`,
    {
      hint: `Wait ${retryAfter} seconds, then check the credentials before trying again.`,
      extra: { retryAfter },
      headers: { 'Retry-After': String(retryAfter) },
    },
  );
}
