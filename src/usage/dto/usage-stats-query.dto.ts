import { ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalDateTimeQuery } from '../../common/validation/optional-date-time-query';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { Granularity, GRANULARITIES, MAX_SERIES_BUCKETS } from '../rollups/usage-series';

export class UsageStatsQueryDto {
  @OptionalDateTimeQuery('from', {
    description: 'Start (inclusive, ISO 8601); default: 30 days before `to`',
    example: '2026-11-01T00:00:00Z',
  })
  from?: Date;

  @OptionalDateTimeQuery('to', {
    description: 'End (exclusive, ISO 8601); default: now',
    example: '2026-12-01T00:00:00Z',
  })
  to?: Date;

  @ApiPropertyOptional({
    description: 'Only requests made with this API key of your account',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID()
  keyId?: string;

  @ApiPropertyOptional({
    enum: GRANULARITIES,
    description: `Adds \`series\`: the range's requests per UTC hour or day, one point per bucket (empty ones included; the first and last count only the part inside the range). At most ${MAX_SERIES_BUCKETS} points.`,
  })
  @IsOptional()
  @IsIn(GRANULARITIES)
  granularity?: Granularity;
}
