import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { CurrentPrincipal, Principal } from '../../src/auth/principal';
import { AnyRole, RequireRole } from '../../src/auth/require-role.decorator';
import { RequireScope } from '../../src/auth/require-scope.decorator';

/** Test-only routes to drive the auth guard's role rules. */
@Controller('api/v1/test-roles')
export class RoleProbeController {
  @Get('read')
  read(@CurrentPrincipal() principal: Principal) {
    return { role: principal.role ?? null };
  }

  @Post('change')
  @HttpCode(200)
  @RequireScope('usage:read')
  change() {
    return { ok: true };
  }

  @Delete('self-service')
  @AnyRole()
  selfService() {
    return { ok: true };
  }

  @Get('owners')
  @RequireRole('owner')
  owners() {
    return { ok: true };
  }
}
