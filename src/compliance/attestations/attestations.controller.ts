import { Caller, CurrentCaller } from '../../auth/caller';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { ADMISSION_RULES } from '../session-admission';
import { Idempotent } from '../../auth/idempotency/idempotent.decorator';
import { RequireScope } from '../../auth/require-scope.decorator';
import { AttestationActivationService } from './attestation-activation.service';
import { ActivateAttestationDto } from './dto/activate-attestation.dto';
import { AttestationActivationResponse } from './dto/attestation.responses';

@ApiTags('onboarding')
@Controller(['onboarding', 'api/v1/onboarding'])
@RequireScope('onboarding:write')
export class AttestationsController {
  constructor(private readonly activation: AttestationActivationService) {}

  @Idempotent()
  @Post('activate-session-attestation')
  @HttpCode(200)
  @Operation({
    id: 'activateSessionAttestation',
    summary: 'Open (or renew) a compliance session from an EAS attestation the wallet holds',
    description:
      "Checks on chain that the wallet holds an attestation of an accepted source (the network file's compliance.attestationSources: attester + schema, e.g. Coinbase Verified Account) that is unrevoked and unexpired, then the attester sends ComplianceRegistry.activate. " +
      "The session never outlives the attestation's expirationTime. Ownership as for POST /verify: production needs the wallet bound to your account; demo mode binds an unbound wallet. No credential file, no prover. " +
      ADMISSION_RULES,
    ok: AttestationActivationResponse,
    errors: [
      ...JSON_BODY_ERRORS,
      'INVALID_ADDRESS',
      'ATTESTATION_NOT_FOUND',
      'ATTESTATION_REVOKED',
      'ATTESTATION_EXPIRED',
      'ATTESTATION_SOURCE_NOT_ACCEPTED',
      'COMPLIANCE_POLICY_REFUSED',
      'INSTITUTION_OWNERSHIP_MISMATCH',
      'BROADCAST_FAILED',
      'WALLET_SANCTIONED',
      'ACTIVATION_RATE_LIMITED',
      'CHAIN_UNAVAILABLE',
    ],
  })
  activateSessionAttestation(
    @Body() body: ActivateAttestationDto,
    @CurrentCaller() caller: Caller,
  ) {
    return this.activation.activate(
      caller.principal,
      body.walletAddress,
      body.source,
      caller.request,
    );
  }
}
