import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
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
import { ReqMeta, RequestMeta } from '../../common/http/request-meta';
import { RequireScope } from '../../auth/require-scope.decorator';
import { ChallengeQueryDto } from './dto/challenge-query.dto';
import { VerifyProofDto } from './dto/verify-proof.dto';
import { VerifyChallengeResponse, VerifyResponse } from './dto/verify.responses';
import { VerificationService } from './verification.service';

@ApiTags('compliance')
@Controller(['verify', 'api/v1/verify'])
@RequireScope('compliance:verify')
export class VerificationController {
  constructor(private readonly verification: VerificationService) {}

  @Get('challenge')
  @ApiOperation({
    summary: 'A single-use challenge to prove a compliance credential for (10 minutes)',
    description:
      'Bound to your account and this wallet. Prove your credential for it (`npm run zk:prove -- --credential FILE --challenge C`) and POST /verify; each proof needs a new challenge.',
  })
  @ApiOkResponse({ type: VerifyChallengeResponse })
  @ApiBadRequestResponse({ description: 'INVALID_PARAMS, INVALID_ADDRESS (walletAddress)' })
  challenge(@Query() query: ChallengeQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.verification.issueChallenge(principal, query.walletAddress);
  }

  @Idempotent()
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify a zero-knowledge compliance proof and open (or renew) the wallet’s session',
    description:
      'Groth16 proof of "I hold an unexpired credential of a registered issuer for this wallet, in a credential root the service accepts, for this challenge". ' +
      'The same credential renews the session as often as needed, one fresh challenge per proof; the session never outlives the credential. ' +
      'Production: the wallet must be bound to your account (POST /onboarding/register with SIWE); demo: an unbound wallet is bound to you.',
  })
  @ApiOkResponse({ type: VerifyResponse })
  @ApiBadRequestResponse({
    description:
      'INVALID_PARAMS (shape), INVALID_ADDRESS, PROOF_INVALID (does not verify; wrong wallet; an issuer key that is not registered or outside its validity dates; unknown, expired or foreign challenge; `now` off the server clock by more than 5 minutes; a root we do not accept: revoked credential or stale tree), CREDENTIAL_EXPIRED',
  })
  @ApiForbiddenResponse({
    description:
      'INSTITUTION_OWNERSHIP_MISMATCH, CREDENTIAL_ISSUER_REVOKED (the operator revoked the credential’s issuer)',
  })
  @ApiConflictResponse({ description: 'PROOF_REPLAYED: this challenge was already used' })
  @ApiBadGatewayResponse({
    description: 'BROADCAST_FAILED: the activation failed; the proof can be submitted again',
  })
  @ApiServiceUnavailableResponse({
    description:
      'CHAIN_UNAVAILABLE: the chain RPC did not answer; the proof can be submitted again',
  })
  verify(
    @Body() body: VerifyProofDto,
    @CurrentPrincipal() principal: Principal,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.verification.verify(principal, body, meta);
  }
}
