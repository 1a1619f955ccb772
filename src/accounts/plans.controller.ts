import { Controller, Get } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/auth/public.decorator';
import { Operation } from '../common/openapi/operation.decorator';
import { PlansResponse } from './dto/plans.response';
import { MONTHLY_QUOTA_EXCLUDES, PLAN_DEFINITIONS, PLANS } from './plans';

class PlansListingResponse extends PlansResponse {
  @ApiProperty({
    description: 'What the monthly quota does not count',
    example: MONTHLY_QUOTA_EXCLUDES,
  })
  monthlyQuotaExcludes: string;
}

@ApiTags('plans')
@Public()
@Controller('api/v1/plans')
export class PlansController {
  @Get()
  @Operation({
    id: 'listPlans',
    summary: 'The plans: requests per minute and per month (public)',
    description: `An account has one plan; an operator may override its per-minute limit or monthly quota. Usage stats show your plan and quota. ${MONTHLY_QUOTA_EXCLUDES}`,
    ok: PlansListingResponse,
    errors: ['INTERNAL_ERROR'],
  })
  listPlans(): PlansListingResponse {
    return {
      plans: PLANS.map((name) => ({ name, ...PLAN_DEFINITIONS[name] })),
      monthlyQuotaExcludes: MONTHLY_QUOTA_EXCLUDES,
    };
  }
}
