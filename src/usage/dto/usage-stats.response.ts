import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PLANS, type Plan } from '../../accounts/plans';

class UsageCounts {
  @ApiProperty({ type: 'integer' }) requests: number;
  @ApiProperty({ type: 'integer', description: 'Status < 400' }) succeeded: number;
  @ApiProperty({ type: 'integer', description: 'Status >= 400 (rate-limited included)' })
  failed: number;
  @ApiProperty({ type: 'integer', description: 'Status 429' }) rateLimited: number;
}

class EndpointUsage extends UsageCounts {
  @ApiProperty({ example: 'POST' }) method: string;
  @ApiProperty({ description: 'Route pattern', example: '/api/v1/defi/swap' }) route: string;
  @ApiProperty({ type: 'integer' }) avgLatencyMs: number;
  @ApiProperty({ type: 'integer' }) maxLatencyMs: number;
}

class KeyUsage extends UsageCounts {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ nullable: true, type: String, description: 'API key id (api_key requests)' })
  keyId: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Dashboard user id (jwt requests)' })
  userId: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastRequestAt: string | null;
}

class SeriesPoint extends UsageCounts {
  @ApiProperty({
    format: 'date-time',
    description: 'Start of the UTC hour or day (the first point may start before `from`)',
  })
  start: string;
}

class RateLimitWindow {
  @ApiProperty({ type: 'integer', description: 'Requests per minute of your plan (or override)' })
  limit: number;
  @ApiProperty({
    type: 'integer',
    description: 'Left in the current 60 s window, after this request',
  })
  remaining: number;
  @ApiProperty({ type: 'integer' }) resetInSeconds: number;
}

class MonthlyQuota {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Requests per UTC calendar month (plan or override); null: unlimited',
  })
  limit: number | null;
  @ApiProperty({ type: 'integer', description: 'Counted this month, this request included' })
  used: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'null: unlimited' })
  remaining: number | null;
  @ApiProperty({ format: 'date-time', description: 'Start of the next UTC month' })
  resetsAt: string;
}

export class UsageStatsResponse {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ format: 'date-time', description: '`from`, rounded down to the minute' })
  from: string;
  @ApiProperty({ format: 'date-time', description: '`to`, rounded up to the minute' })
  to: string;
  @ApiProperty({ type: UsageCounts }) totals: UsageCounts;
  @ApiProperty({ type: [EndpointUsage] }) byEndpoint: EndpointUsage[];
  @ApiProperty({
    description: 'Failed requests per error code',
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { RATE_LIMIT_EXCEEDED: 3 },
  })
  byCode: Record<string, number>;
  @ApiProperty({
    type: [KeyUsage],
    description: 'Per API key and per dashboard user of your account',
  })
  byKey: KeyUsage[];
  @ApiPropertyOptional({ enum: ['hour', 'day'], description: 'When asked for' })
  granularity?: 'hour' | 'day';
  @ApiPropertyOptional({
    type: [SeriesPoint],
    description: 'With `granularity`: requests per bucket, oldest first, every bucket of the range',
  })
  series?: SeriesPoint[];
  @ApiProperty({ type: RateLimitWindow }) rateLimit: RateLimitWindow;
  @ApiProperty({ enum: PLANS, description: "Your account's plan (GET /api/v1/plans)" }) plan: Plan;
  @ApiProperty({ type: MonthlyQuota }) quota: MonthlyQuota;
}
