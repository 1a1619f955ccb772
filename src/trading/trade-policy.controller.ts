import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { RequireScope } from '../auth/require-scope.decorator';
import { JSON_BODY_ERRORS } from '../common/openapi/api-errors.decorator';
import { Operation } from '../common/openapi/operation.decorator';
import {
  EvaluatePolicyDto,
  PolicyEvaluationResponse,
} from '../compliance/policy/dto/compliance-policy.dto';
import { TradePolicyService } from './trade-policy.service';

/**
 * The policy's dry run. It lives here, above compliance, since issue 54: with a draft trade it
 * also applies the trade rules and reads the daily-limit ledger (GET and PUT stay in compliance).
 */
@ApiTags('compliance')
@Controller('api/v1/compliance/policy')
export class TradePolicyController {
  constructor(private readonly policy: TradePolicyService) {}

  @Post('evaluate')
  @HttpCode(200)
  @RequireScope('compliance:verify', 'onboarding:write')
  @Operation({
    id: 'evaluateCompliancePolicy',
    summary:
      'Dry run: a wallet (and a draft trade) against your policy (or a draft); changes nothing',
    description:
      "Reads the wallet's attestations of every accepted source on chain and answers each source's result, the deciding rule and the policy version evaluated (null for a draft). A ZK issuer shows proof_required (a proof is presented to POST /verify). A draft is validated as a PUT body (400 INVALID_PARAMS naming the field). " +
      "With `trade` (a swap request's tokenIn, tokenOut, amount, tradeType; amountInMaximum for EXACT_OUTPUT), `trade` answers which trade rule would refuse it (the code and details a build would get) and how much of each daily limit your account's wallets have used in the rolling 24 h.",
    ok: PolicyEvaluationResponse,
    errors: [...JSON_BODY_ERRORS, 'UNSUPPORTED_TOKEN', 'CHAIN_UNAVAILABLE', 'SERVICE_UNAVAILABLE'],
  })
  evaluate(@Body() body: EvaluatePolicyDto, @CurrentPrincipal() principal: Principal) {
    return this.policy.evaluate(principal, body);
  }
}
