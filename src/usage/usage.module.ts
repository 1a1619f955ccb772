import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { UsageRecord } from './usage-record.entity';
import { UsageRecorder } from './usage-recorder.service';
import { UsageStatsService } from './usage-stats.service';
import { UsageController } from './usage.controller';

/** Usage metering (recorder + stats) and the per-account rate limit. */
@Module({
  imports: [TypeOrmModule.forFeature([UsageRecord]), RateLimitModule],
  controllers: [UsageController],
  providers: [UsageRecorder, UsageStatsService],
  exports: [UsageRecorder, RateLimitModule],
})
export class UsageModule {}
