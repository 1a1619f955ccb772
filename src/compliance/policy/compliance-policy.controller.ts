import { Caller, CurrentCaller } from '../../auth/caller';
import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireRole } from '../../auth/require-role.decorator';
import { RequireDashboardLogin, RequireScope } from '../../auth/require-scope.decorator';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { CompliancePolicyService } from './compliance-policy.service';
import { CompliancePolicyDto, CompliancePolicyResponse } from './dto/compliance-policy.dto';

/**
 * The account's compliance policy (design §9): read with a key, set from the dashboard. Its dry
 * run (POST evaluate) is TradePolicyController's: it also applies the trade rules (issue 54).
 */
@ApiTags('compliance')
@Controller('api/v1/compliance/policy')
export class CompliancePolicyController {
  constructor(private readonly policy: CompliancePolicyService) {}

  @Get()
  @RequireScope('compliance:verify', 'onboarding:write')
  @Operation({
    id: 'getCompliancePolicy',
    summary: "Your account's compliance policy (the default when never set)",
    ok: CompliancePolicyResponse,
    errors: ['SERVICE_UNAVAILABLE'],
  })
  get(@CurrentPrincipal() principal: Principal) {
    return this.policy.describe(principal.accountId);
  }

  @Put()
  @RequireDashboardLogin()
  @RequireRole('owner', 'admin')
  @Operation({
    id: 'setCompliancePolicy',
    summary: 'Set the compliance policy every session activation applies (owners and admins)',
    description:
      'Rules in order, the first that refuses decides: sources (any/all of the named), countries (deny; then countries.unknown for a wallet whose country no source establishes, refused by default where a list is set; then allow), minSessionSeconds. ' +
      'sources, countries and minSessionSeconds are required (countries may be `{}`); a member sent as null, an array where an object belongs, or an unknown member is 400 INVALID_PARAMS naming the field. ' +
      "GET's answer can be sent back as is: its read-only members (authMethod, version, updatedAt, knownSources) are accepted and ignored. " +
      'Each PUT is one new version (1 on the first, one more on each), answered with what it wrote; concurrent PUTs each answer 200 and the last to commit is the policy. ' +
      'Audited; webhook event compliance.policy_updated (data: from, to, version). Sessions already open stay open.',
    ok: CompliancePolicyResponse,
    errors: [...JSON_BODY_ERRORS, 'ROLE_FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  })
  set(@Body() body: CompliancePolicyDto, @CurrentCaller() caller: Caller) {
    return this.policy.update(caller.principal, body, caller.request);
  }
}
