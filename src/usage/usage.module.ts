import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { ComplianceModule } from '../compliance/compliance.module';
import { MonthlyQuotaCounter } from './quota/monthly-quota.counter';
import { MonthlyQuotaGuard } from './quota/monthly-quota.guard';
import { QuotaThresholds } from './quota/quota-thresholds';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { RetentionScheduler } from './retention/retention.scheduler';
import { UsageRetentionService } from './retention/usage-retention.service';
import { UsageRollup } from './rollups/usage-rollup.entity';
import { UsageRollupsService } from './rollups/usage-rollups.service';
import { UsageRecord } from './usage-record.entity';
import { UsageRecorder } from './usage-recorder.service';
import { UsageRecordingMiddleware } from './usage-recording.middleware';
import { UsageStatsService } from './usage-stats.service';
import { UsageController } from './usage.controller';
import { RedisFailOpenMetrics } from './redis-fail-open.metrics';

/**
 * Usage metering (recording middleware, buffered writer with roll-ups, stats), the per-account
 * rate limit, the monthly quota, and the retention sweep (each module prunes its own tables).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([UsageRecord, UsageRollup]),
    RateLimitModule,
    AuthModule,
    ComplianceModule,
    AuditModule,
  ],
  controllers: [UsageController],
  providers: [
    UsageRecorder,
    UsageRollupsService,
    UsageStatsService,
    MonthlyQuotaCounter,
    MonthlyQuotaGuard,
    QuotaThresholds,
    UsageRetentionService,
    RetentionScheduler,
    RedisFailOpenMetrics,
  ],
  exports: [RateLimitModule, MonthlyQuotaCounter, MonthlyQuotaGuard, RetentionScheduler],
})
export class UsageModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Every route: whether a request is metered is decided when it ends (a principal is set).
    consumer.apply(UsageRecordingMiddleware).forRoutes('{*path}');
  }
}
