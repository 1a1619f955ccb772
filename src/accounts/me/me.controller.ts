import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireDashboardLogin } from '../../auth/require-scope.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { MeResponse } from './me.response';
import { MeService } from './me.service';

@ApiTags('auth')
@RequireDashboardLogin()
@Controller('api/v1/auth/me')
export class MeController {
  constructor(private readonly me: MeService) {}

  @Get()
  @Operation({
    id: 'getMe',
    summary: 'Who is signed in: your user (role, two-factor) and your account (plan, limits)',
    description:
      'Any role. monthlyQuota and rateLimitPerMinute are the limits in force (the plan’s, or an operator’s override).',
    ok: MeResponse,
    errors: ['SERVICE_UNAVAILABLE'],
  })
  get(@CurrentPrincipal() principal: Principal) {
    return this.me.me(principal.accountId, principal.userId!);
  }
}
