import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { UsageRecord } from './usage-record.entity';
import { UsageRecorder } from './usage-recorder.service';
import { UsageRecordingMiddleware } from './usage-recording.middleware';
import { UsageStatsService } from './usage-stats.service';
import { UsageController } from './usage.controller';

/** Usage metering (recording middleware, buffered writer, stats) and the per-account rate limit. */
@Module({
  imports: [TypeOrmModule.forFeature([UsageRecord]), RateLimitModule],
  controllers: [UsageController],
  providers: [UsageRecorder, UsageStatsService],
  exports: [RateLimitModule],
})
export class UsageModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Every route: whether a request is metered is decided when it ends (a principal is set).
    consumer.apply(UsageRecordingMiddleware).forRoutes('{*path}');
  }
}
