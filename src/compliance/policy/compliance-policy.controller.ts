import { Caller, CurrentCaller } from '../../auth/caller';
import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireRole } from '../../auth/require-role.decorator';
import { RequireDashboardLogin, RequireScope } from '../../auth/require-scope.decorator';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { CompliancePolicyService } from './compliance-policy.service';
import {
  CompliancePolicyDto,
  CompliancePolicyResponse,
  EvaluatePolicyDto,
  PolicyEvaluationResponse,
} from './dto/compliance-policy.dto';

/** The account's compliance policy (design §9): read and dry-run with a key, set from the dashboard. */
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
      'Rules in order, the first that refuses decides: sources (any/all of the named), countries (deny, then allow; where a source carries a country), minSessionSeconds. Audited; webhook event compliance.policy_updated. Sessions already open stay open.',
    ok: CompliancePolicyResponse,
    errors: [...JSON_BODY_ERRORS, 'ROLE_FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  })
  set(@Body() body: CompliancePolicyDto, @CurrentCaller() caller: Caller) {
    return this.policy.update(caller.principal, body, caller.request);
  }

  @Post('evaluate')
  @HttpCode(200)
  @RequireScope('compliance:verify', 'onboarding:write')
  @Operation({
    id: 'evaluateCompliancePolicy',
    summary: 'Dry run: a wallet against your policy (or a draft); changes nothing',
    description:
      "Reads the wallet's attestations of every accepted source on chain and answers each source's result and the deciding rule. A ZK issuer shows proof_required (a proof is presented to POST /verify).",
    ok: PolicyEvaluationResponse,
    errors: [...JSON_BODY_ERRORS, 'CHAIN_UNAVAILABLE', 'SERVICE_UNAVAILABLE'],
  })
  evaluate(@Body() body: EvaluatePolicyDto, @CurrentPrincipal() principal: Principal) {
    return this.policy.evaluate(principal, body.walletAddress, body.policy);
  }
}
