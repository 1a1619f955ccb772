import { ApiProperty } from '@nestjs/swagger';
import { PLANS, type Plan } from '../plans';

export class PlanDto {
  @ApiProperty({ enum: PLANS, example: 'pro' }) name: Plan;
  @ApiProperty({ type: 'integer', description: 'Requests per minute (fixed 60 s window)' })
  requestsPerMinute: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Requests per UTC calendar month; null: unlimited',
    example: 1_000_000,
  })
  monthlyQuota: number | null;
  @ApiProperty({
    type: 'integer',
    description: 'Active API keys the account may hold (revoked keys do not count)',
    example: 100,
  })
  maxApiKeys: number;
}

export class PlansResponse {
  @ApiProperty({ type: [PlanDto], description: 'From the smallest to the largest' })
  plans: PlanDto[];
}
