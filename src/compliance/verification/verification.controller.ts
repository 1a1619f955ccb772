import { Caller, CurrentCaller } from '../../auth/caller';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { Idempotent } from '../../auth/idempotency/idempotent.decorator';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireScope } from '../../auth/require-scope.decorator';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { ADMISSION_RULES } from '../session-admission';
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
  @Operation({
    id: 'challenge',
    summary: 'A single-use challenge to prove a compliance credential for (10 minutes)',
    description:
      'Bound to your account and this wallet. Prove your credential for it (`npm run zk:prove -- --credential FILE --challenge C`) and POST /verify; each proof needs a new challenge.',
    ok: VerifyChallengeResponse,
    errors: ['INVALID_PARAMS', 'INVALID_ADDRESS'],
  })
  challenge(@Query() query: ChallengeQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.verification.issueChallenge(principal, query.walletAddress);
  }

  @Idempotent()
  @Post()
  @HttpCode(200)
  @Operation({
    id: 'verify',
    summary: 'Verify a zero-knowledge compliance proof and open (or renew) the wallet’s session',
    description:
      'Groth16 proof of "I hold an unexpired credential of a registered issuer for this wallet, in a credential root the service accepts, for this challenge". ' +
      'The same credential renews the session as often as needed, one fresh challenge per proof; the session never outlives the credential. ' +
      'Production: the wallet must be bound to your account (POST /onboarding/register with SIWE); demo: an unbound wallet is bound to you. ' +
      'PROOF_INVALID when the proof does not verify: wrong wallet; an issuer key that is not registered or outside its validity dates; an unknown, expired or foreign challenge; `now` off the server clock by more than 5 minutes; a root we do not accept (revoked credential or stale tree). ' +
      'PROOF_REPLAYED when the challenge was already used; after BROADCAST_FAILED, CHAIN_UNAVAILABLE or ACTIVATION_RATE_LIMITED the proof can be submitted again. ' +
      ADMISSION_RULES,
    ok: VerifyResponse,
    errors: [
      ...JSON_BODY_ERRORS,
      'INVALID_ADDRESS',
      'PROOF_INVALID',
      'CREDENTIAL_EXPIRED',
      'INSTITUTION_OWNERSHIP_MISMATCH',
      'WALLET_SANCTIONED',
      'CREDENTIAL_ISSUER_REVOKED',
      'PROOF_REPLAYED',
      'COMPLIANCE_POLICY_REFUSED',
      'ACTIVATION_RATE_LIMITED',
      'BROADCAST_FAILED',
      'CHAIN_UNAVAILABLE',
    ],
  })
  verify(@Body() body: VerifyProofDto, @CurrentCaller() caller: Caller) {
    return this.verification.verify(caller.principal, body, caller.request);
  }
}
