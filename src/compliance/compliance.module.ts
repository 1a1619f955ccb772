import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ComplianceActivity } from './compliance-activity';
import { complianceKeysProvider } from './compliance-keys';
import { CredentialsModule } from './credentials/credentials.module';
import { OnboardingController } from './onboarding/onboarding.controller';
import { OnboardingService } from './onboarding/onboarding.service';
import { SiweNonce } from './onboarding/siwe-nonce.entity';
import { SiweNoncesService } from './onboarding/siwe-nonces.service';
import { SessionStatusController } from './session-status/session-status.controller';
import { SessionStatusService } from './session-status/session-status.service';
import { AttesterHealthIndicator } from './sessions/attester.health';
import { AttesterService } from './sessions/attester.service';
import { RegistryConnection } from './sessions/registry-connection';
import { SessionsService } from './sessions/sessions.service';
import { ProofVerifierService } from './verification/proof-verifier.service';
import { VerificationController } from './verification/verification.controller';
import { ProvingArtifactsController } from './verification/proving-artifacts.controller';
import { ProvingArtifactsService } from './verification/proving-artifacts.service';
import { VerificationService } from './verification/verification.service';
import { VerifyChallenge } from './verification/verify-challenge.entity';
import { VerifyChallengesService } from './verification/verify-challenges.service';
import { WalletsModule } from './wallets/wallets.module';

/**
 * Onboarding (wallet binding, SIWE), compliance sessions (attester, on-chain status), ZK
 * verification (challenges, worker-pool verifier) and the accepted credential roots.
 */
@Module({
  imports: [
    WalletsModule,
    CredentialsModule,
    TypeOrmModule.forFeature([SiweNonce, VerifyChallenge]),
  ],
  controllers: [
    OnboardingController,
    VerificationController,
    ProvingArtifactsController,
    SessionStatusController,
  ],
  providers: [
    ComplianceActivity,
    complianceKeysProvider,
    RegistryConnection,
    AttesterService,
    AttesterHealthIndicator,
    SessionsService,
    SessionStatusService,
    SiweNoncesService,
    OnboardingService,
    VerifyChallengesService,
    ProofVerifierService,
    VerificationService,
    ProvingArtifactsService,
  ],
  exports: [
    SessionsService,
    AttesterService,
    VerifyChallengesService,
    CredentialsModule,
    SiweNoncesService,
  ],
})
export class ComplianceModule {}
