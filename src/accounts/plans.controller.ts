import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/auth/public.decorator';
import { PlansResponse } from './dto/plans.response';
import { PLAN_DEFINITIONS, PLANS } from './plans';

@ApiTags('plans')
@Public()
@Controller('api/v1/plans')
export class PlansController {
  @Get()
  @ApiOperation({
    operationId: 'listPlans',
    summary: 'The plans: requests per minute and per month (public)',
    description:
      'An account has one plan; an operator may override its per-minute limit or monthly quota. Usage stats show your plan and quota.',
  })
  @ApiOkResponse({ type: PlansResponse })
  listPlans(): PlansResponse {
    return { plans: PLANS.map((name) => ({ name, ...PLAN_DEFINITIONS[name] })) };
  }
}
