import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { RequireScope } from '../auth/require-scope.decorator';
import { Operation } from '../common/openapi/operation.decorator';
import { UsageStatsQueryDto } from './dto/usage-stats-query.dto';
import { UsageStatsResponse } from './dto/usage-stats.response';
import { CurrentQuota, QuotaState } from './quota/quota-state';
import { CurrentRateLimit, RateLimitState } from './rate-limit/rate-limit-state';
import { UsageStatsService } from './usage-stats.service';

@ApiTags('usage')
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly stats: UsageStatsService) {}

  @Get('stats')
  @RequireScope('usage:read')
  @Operation({
    id: 'getUsageStats',
    summary:
      "Your account's usage (requests, failures, rate-limited), your plan, monthly quota and current rate-limit window",
    description:
      'Counted from per-minute and per-hour roll-ups: minute resolution (`from` rounded down, `to` up). `granularity=hour|day` adds `series`, a chart in one call. Raw rows are kept USAGE_RAW_RETENTION_DAYS, roll-ups USAGE_ROLLUP_RETENTION_DAYS.',
    ok: UsageStatsResponse,
    errors: ['INVALID_PARAMS', 'QUOTA_EXCEEDED', 'SERVICE_UNAVAILABLE'],
  })
  async getStats(
    @CurrentPrincipal() principal: Principal,
    @CurrentRateLimit() rateLimit: RateLimitState,
    @CurrentQuota() { plan, ...quota }: QuotaState,
    @Query() query: UsageStatsQueryDto,
  ) {
    const stats = await this.stats.statsFor({ accountId: principal.accountId, ...query });
    return Object.assign(stats, { rateLimit, plan, quota });
  }
}
