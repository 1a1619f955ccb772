import { Caller, CurrentCaller } from '../caller';
import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { CurrentPrincipal, Principal } from '../principal';
import { RequireRole } from '../require-role.decorator';
import { RequireDashboardLogin } from '../require-scope.decorator';
import { AccountSecurityService } from './account-security.service';
import { AccountSecurityResponse, UpdateAccountSecurityDto } from './dto/mfa.dto';

/** The account's sign-in policy: any member reads it, the owner changes it. */
@ApiTags('account')
@RequireDashboardLogin()
@Controller('api/v1/account/security')
export class AccountSecurityController {
  constructor(private readonly security: AccountSecurityService) {}

  @Get()
  @Operation({
    id: 'getAccountSecurity',
    summary: "Your account's sign-in policy",
    ok: AccountSecurityResponse,
    errors: ['SERVICE_UNAVAILABLE'],
  })
  get(@CurrentPrincipal() principal: Principal) {
    return this.security.forAccount(principal.accountId);
  }

  @Patch()
  @RequireRole('owner')
  @Operation({
    id: 'updateAccountSecurity',
    summary: 'Require two-factor sign-in of every member (owner only)',
    description:
      'With mfaRequired, a member without an authenticator gets MFA_REQUIRED at login (details: enrollmentRequired) and enrols there: POST /auth/mfa/totp/enroll, then log in with `otp`. Sessions already open stay open.',
    ok: AccountSecurityResponse,
    errors: [...JSON_BODY_ERRORS, 'ROLE_FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  })
  update(@Body() body: UpdateAccountSecurityDto, @CurrentCaller() caller: Caller) {
    return this.security.update(
      { accountId: caller.principal.accountId, userId: caller.principal.userId! },
      body,
      caller.request,
    );
  }
}
