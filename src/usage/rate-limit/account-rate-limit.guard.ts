import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
import { principalOf } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import { attachRateLimit, countedRateLimitOf } from './rate-limit-state';
import { RateLimitStorage } from './rate-limit.storage';

/**
 * Global guard after authentication: one fixed 60 s window per ACCOUNT (all its keys and users
 * share it), sized by the account's plan or override. Requests without a principal (public routes;
 * failed authentication never gets here) are not counted. Sets RateLimit-Limit / -Remaining /
 * -Reset on every protected response; over the limit: 429 RATE_LIMIT_EXCEEDED + Retry-After.
 */
@Injectable()
export class AccountRateLimitGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return context.getType() !== 'http' || !principalOf(context.switchToHttp().getRequest());
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, ttl, throttler, blockDuration, getTracker, generateKey } = props;
    let { limit } = props;
    const { req, res } = this.getRequestResponse(context);
    // Counted with the month in one Redis round trip (MonthlyQuotaGuard), or counted here.
    const counted = countedRateLimitOf(req);
    const record =
      counted ??
      (await this.storageService.increment(
        generateKey(context, await getTracker(req, context), throttler.name!),
        ttl,
        limit,
        blockDuration,
        throttler.name!,
      ));
    if (counted) {
      limit = counted.limit;
      if (this.storageService instanceof RateLimitStorage) this.storageService.countedWithQuota();
    }
    const resetInSeconds = Math.max(1, record.timeToExpire);
    const remaining = Math.max(0, limit - record.totalHits);
    res.setHeader('RateLimit-Limit', limit);
    res.setHeader('RateLimit-Remaining', remaining);
    res.setHeader('RateLimit-Reset', resetInSeconds);
    attachRateLimit(req, { limit, remaining, resetInSeconds });
    if (record.totalHits > limit) {
      throw new ApiError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of ${limit} requests per minute exceeded`,
        {
          extra: { retryAfter: resetInSeconds },
          headers: { 'Retry-After': String(resetInSeconds) },
        },
      );
    }
    return true;
  }
}
