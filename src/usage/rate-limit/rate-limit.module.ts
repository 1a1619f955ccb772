import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AccountsModule } from '../../accounts/accounts.module';
import { principalOf } from '../../auth/principal';
import { AccountLimitsService } from './account-limits.service';
import { RateLimitStorage } from './rate-limit.storage';
import { RATE_LIMIT_THROTTLER, RATE_LIMIT_WINDOW_MS, rateLimitKey } from './rate-limit-key';
import { RedisConnection } from './redis-connection';

@Module({
  imports: [AccountsModule],
  providers: [RedisConnection, RateLimitStorage, AccountLimitsService],
  exports: [RedisConnection, RateLimitStorage, AccountLimitsService],
})
export class RateLimitStorageModule {}

/**
 * @nestjs/throttler wired for per-account limits: one named throttler whose limit is resolved per
 * request from the account, keyed by account id, stored in memory or Redis (RateLimitStorage).
 */
@Module({
  imports: [
    RateLimitStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStorageModule],
      inject: [RateLimitStorage, AccountLimitsService],
      useFactory: (storage: RateLimitStorage, limits: AccountLimitsService) => ({
        storage,
        throttlers: [
          {
            name: RATE_LIMIT_THROTTLER,
            ttl: RATE_LIMIT_WINDOW_MS,
            limit: (context) =>
              limits.limitFor(principalOf(context.switchToHttp().getRequest())!.accountId),
            getTracker: (req) => principalOf(req)!.accountId,
            generateKey: (_context, accountId) => rateLimitKey(accountId),
          },
        ],
      }),
    }),
  ],
  exports: [RateLimitStorageModule],
})
export class RateLimitModule {}
