import { Caller, CurrentCaller } from '../caller';
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { CurrentPrincipal, Principal } from '../principal';
import { RequireDashboardLogin } from '../require-scope.decorator';
import { AnyRole } from '../require-role.decorator';
import { AccountSecurityService } from './account-security.service';
import {
  MfaStatusResponse,
  RecoveryCodesResponse,
  TotpCodeDto,
  TotpSetupResponse,
} from './dto/mfa.dto';
import { MfaService, MfaUser } from './mfa.service';

const dashboardUser = (principal: Principal): MfaUser => ({
  userId: principal.userId!,
  accountId: principal.accountId,
});

/** The signed-in user's own two-factor sign-in (TOTP, RFC 6238): dashboard login only. */
@ApiTags('auth')
@RequireDashboardLogin()
// Every member enrols their own authenticator, a viewer included.
@AnyRole()
@Controller('api/v1/auth/mfa')
export class MfaController {
  constructor(
    private readonly mfa: MfaService,
    private readonly accountSecurity: AccountSecurityService,
  ) {}

  @Get()
  @Operation({
    id: 'getMfaStatus',
    summary: 'Whether two-factor sign-in is on for you, and whether your account requires it',
    ok: MfaStatusResponse,
    errors: ['SERVICE_UNAVAILABLE'],
  })
  async status(@CurrentPrincipal() principal: Principal) {
    return {
      enabled: await this.mfa.isEnabled(principal.userId!),
      requiredByAccount: await this.accountSecurity.isMfaRequired(principal.accountId),
    };
  }

  @Post('totp/setup')
  @HttpCode(200)
  @Operation({
    id: 'setupTotp',
    summary: 'Start enrolling an authenticator app: a new secret, its otpauth URI and QR code',
    description:
      'The secret stays pending (login does not ask for codes) until POST .../enable confirms a code. Calling it again replaces a pending secret; once enabled, INVALID_PARAMS (disable first).',
    ok: TotpSetupResponse,
    errors: ['INVALID_PARAMS', 'SERVICE_UNAVAILABLE'],
  })
  setup(@CurrentPrincipal() principal: Principal) {
    return this.mfa.setup(dashboardUser(principal));
  }

  @Post('totp/enable')
  @HttpCode(200)
  @Operation({
    id: 'enableTotp',
    summary: 'Confirm the authenticator with its current code: two-factor sign-in is on',
    description:
      'Returns ten single-use recovery codes, shown this once. From now on POST /auth/login needs `otp` (MFA_REQUIRED without it). A wrong code counts toward your lockout (by default 5 per 15 minutes, shared with login and disable; then RATE_LIMIT_EXCEEDED with retryAfter).',
    ok: RecoveryCodesResponse,
    errors: [...JSON_BODY_ERRORS, 'MFA_INVALID', 'RATE_LIMIT_EXCEEDED', 'SERVICE_UNAVAILABLE'],
  })
  async enable(@Body() body: TotpCodeDto, @CurrentCaller() caller: Caller) {
    return {
      recoveryCodes: await this.mfa.enable(
        dashboardUser(caller.principal),
        body.code,
        caller.request,
      ),
    };
  }

  @Post('totp/disable')
  @HttpCode(204)
  @Operation({
    id: 'disableTotp',
    summary: 'Turn two-factor sign-in off, with a current code or an unused recovery code',
    description:
      'The secret and every recovery code are deleted. Idempotent: 204 when it is already off. A wrong code counts toward your lockout, shared with login (then RATE_LIMIT_EXCEEDED with retryAfter).',
    noContent: 'Two-factor sign-in is off',
    errors: [...JSON_BODY_ERRORS, 'MFA_INVALID', 'RATE_LIMIT_EXCEEDED', 'SERVICE_UNAVAILABLE'],
  })
  async disable(@Body() body: TotpCodeDto, @CurrentCaller() caller: Caller): Promise<void> {
    await this.mfa.disable(dashboardUser(caller.principal), body.code, caller.request);
  }
}
