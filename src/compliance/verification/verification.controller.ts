import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Idempotent } from '../../auth/idempotency/idempotent.decorator';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireScope } from '../../auth/require-scope.decorator';
import { VerifyProofDto } from './dto/verify-proof.dto';
import { VerificationService } from './verification.service';

@ApiTags('compliance')
@Controller(['verify', 'api/v1/verify'])
export class VerificationController {
  constructor(private readonly verification: VerificationService) {}

  @Idempotent()
  @Post()
  @HttpCode(200)
  @RequireScope('compliance:verify')
  @ApiOperation({
    summary: 'Verify a zero-knowledge compliance proof and open the wallet’s compliance session',
    description:
      'Groth16 proof of "I hold a credential signed by the configured issuer for this wallet". Each credential works once (nullifier). ' +
      'Production: the wallet must be bound to your account (POST /onboarding/register with SIWE); demo: an unbound wallet is bound to you.',
  })
  @ApiOkResponse({
    description:
      '{ authMethod, walletAddress, verified: true, nullifier, activeUntil, activeUntilUnix, txHash, blockNumber }',
  })
  @ApiBadRequestResponse({
    description:
      'INVALID_PARAMS (shape), INVALID_ADDRESS, PROOF_INVALID (does not verify, wrong wallet or issuer)',
  })
  @ApiForbiddenResponse({ description: 'INSTITUTION_OWNERSHIP_MISMATCH' })
  @ApiConflictResponse({
    description: 'PROOF_REPLAYED: this credential (nullifier) was already used',
  })
  @ApiBadGatewayResponse({
    description: 'BROADCAST_FAILED: the activation failed; the proof can be submitted again',
  })
  @ApiServiceUnavailableResponse({
    description:
      'CHAIN_UNAVAILABLE: the chain RPC did not answer; the proof can be submitted again',
  })
  verify(@Body() body: VerifyProofDto, @CurrentPrincipal() principal: Principal) {
    return this.verification.verify(principal, body);
  }
}
