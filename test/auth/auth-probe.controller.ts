import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { CurrentPrincipal, Principal } from '../../src/auth/principal';
import { RequireScope } from '../../src/auth/require-scope.decorator';

export class ProbeSwapDto {
  @IsString()
  label: string;

  @IsInt()
  @Min(1)
  @Max(10)
  count: number;
}

/** Test-only protected routes, to drive the auth guard, the rate limit and usage metering. */
@Controller('api/v1/test-protected')
export class AuthProbeController {
  @Post('swap')
  @RequireScope('defi:swap')
  swap(@CurrentPrincipal() principal: Principal, @Body() body: ProbeSwapDto) {
    return { ok: true, label: body.label, accountId: principal.accountId };
  }

  @Get('preflight/:address')
  @RequireScope('defi:preflight')
  preflight(@CurrentPrincipal() principal: Principal, @Param('address') address: string) {
    return { ok: true, address, principal };
  }

  /** No decorator: the global guard still requires a principal (any method, any scope). */
  @Get('any')
  any() {
    return { ok: true };
  }

  @Get('fail')
  @RequireScope('defi:swap')
  fail(): never {
    throw new Error('probe failure after auth');
  }
}
