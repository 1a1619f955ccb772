import { Caller, CurrentCaller } from '../../auth/caller';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Idempotent } from '../../auth/idempotency/idempotent.decorator';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireScope } from '../../auth/require-scope.decorator';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { ADMISSION_RULES } from '../session-admission';
import { NonceQueryDto } from './dto/nonce-query.dto';
import {
  ActivatedSessionResponse,
  NonceResponse,
  RegisterWalletResponse,
} from './dto/onboarding.responses';
import { RegisterWalletDto } from './dto/register-wallet.dto';
import { WalletAddressDto } from './dto/wallet-address.dto';
import { OnboardingService } from './onboarding.service';

/** Spec §4 lists the unversioned paths; design §4 serves every endpoint under /api/v1 as well. */
@ApiTags('onboarding')
@Controller(['onboarding', 'api/v1/onboarding'])
@RequireScope('onboarding:write')
export class OnboardingController {
  constructor(private readonly onboarding: OnboardingService) {}

  @Get('nonce')
  @Operation({
    id: 'nonce',
    summary: 'A single-use Sign-In-with-Ethereum nonce (10 minutes, for your account only)',
    description:
      'Put it in an ERC-4361 message for domain and chainId as returned, sign it with the wallet (personal_sign) and POST /onboarding/register.',
    ok: NonceResponse,
    errors: ['INVALID_PARAMS', 'INVALID_ADDRESS'],
  })
  nonce(@Query() query: NonceQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.onboarding.issueNonce(principal, query.walletAddress);
  }

  @Idempotent()
  @Post('register')
  @HttpCode(200)
  @Operation({
    id: 'register',
    summary: 'Bind a wallet to your account',
    description:
      'Demo mode (test network): binds; a wallet bound to another account is rebound to yours and rebound is true (the other account is not named). ' +
      'Production mode: message + signature (SIWE, nonce from GET /onboarding/nonce) are required and a wallet bound elsewhere is never rebound. ' +
      'Idempotent when the wallet is already yours. ' +
      'SIWE_INVALID says in details[].reason what failed: SIWE_DOMAIN, SIWE_CHAIN, SIWE_SIGNER, SIWE_EXPIRED, SIWE_NONCE or SIWE_INVALID.',
    ok: RegisterWalletResponse,
    errors: [
      ...JSON_BODY_ERRORS,
      'INVALID_ADDRESS',
      'SIWE_INVALID',
      'INSTITUTION_OWNERSHIP_MISMATCH',
    ],
  })
  register(@Body() body: RegisterWalletDto, @CurrentCaller() caller: Caller) {
    return this.onboarding.register(caller.principal, body, caller.request);
  }

  @Idempotent()
  @Post('activate-session-demo')
  @HttpCode(200)
  @Operation({
    id: 'activateSessionDemo',
    summary: 'Test network only: open a compliance session for a wallet of yours',
    description:
      'The attester sends ComplianceRegistry.activate(wallet, now + SESSION_TTL_SECONDS) and the call answers once it is mined. ' +
      'An unbound wallet is bound to your account once every check passed; one bound to another account is refused (403 INSTITUTION_OWNERSHIP_MISMATCH). ' +
      `${ADMISSION_RULES} ` +
      'BROADCAST_FAILED when the activation reverted or was not mined; CHAIN_UNAVAILABLE when the chain RPC did not answer (nothing was sent).',
    ok: ActivatedSessionResponse,
    errors: [
      ...JSON_BODY_ERRORS,
      'INVALID_ADDRESS',
      'DEMO_DISABLED',
      'INSTITUTION_OWNERSHIP_MISMATCH',
      'WALLET_SANCTIONED',
      'COMPLIANCE_POLICY_REFUSED',
      'ACTIVATION_RATE_LIMITED',
      'BROADCAST_FAILED',
      'CHAIN_UNAVAILABLE',
    ],
  })
  activateSessionDemo(@Body() body: WalletAddressDto, @CurrentCaller() caller: Caller) {
    return this.onboarding.activateDemoSession(
      caller.principal,
      body.walletAddress,
      caller.request,
    );
  }
}
