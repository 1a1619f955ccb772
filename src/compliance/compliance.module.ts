import { Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AttestationActivationService } from './attestations/attestation-activation.service';
import { AttestationReaderService } from './attestations/attestation-reader.service';
import { AttestationIndex } from './attestations/attestation-index.service';
import { AttestationSession } from './attestations/attestation-session.entity';
import { AttestationsController } from './attestations/attestations.controller';
import { SessionAdmission } from './session-admission';
import { ActivationThrottle } from './activation/activation-throttle';
import { ComplianceActivity } from './compliance-activity';
import { CompliancePolicy } from './policy/compliance-policy.entity';
import { CompliancePolicyController } from './policy/compliance-policy.controller';
import { CompliancePolicyService } from './policy/compliance-policy.service';
import { complianceKeysProvider } from './compliance-keys';
import { CredentialsModule } from './credentials/credentials.module';
import { OnboardingController } from './onboarding/onboarding.controller';
import { OnboardingService } from './onboarding/onboarding.service';
import { SiweNonce } from './onboarding/siwe-nonce.entity';
import { SiweNoncesService } from './onboarding/siwe-nonces.service';
import { SessionStatusController } from './session-status/session-status.controller';
import { SessionStatusService } from './session-status/session-status.service';
import { AttesterBalanceMonitor } from './sessions/attester-balance.monitor';
import { AttestationRevocationCheck } from './screening/attestation-revocation.check';
import {
  CREDENTIAL_REVOKED,
  ISSUER_REVOKED,
  ProofSessionCheck,
} from './screening/credential-revocation.check';
import { REVOCATION_CHECKS, RevocationCheck, sanctionsCheck } from './screening/revocation-checks';
import { SanctionsScreen } from './screening/sanctions-screen.service';
import { ScreeningWatcher } from './screening/screening.watcher';
import { AttesterHealthIndicator } from './sessions/attester.health';
import { AttesterService } from './sessions/attester.service';
import { RegistryConnection } from './sessions/registry-connection';
import { RevocationRetry } from './sessions/revocation-retry';
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
    TypeOrmModule.forFeature([SiweNonce, VerifyChallenge, CompliancePolicy, AttestationSession]),
  ],
  controllers: [
    OnboardingController,
    AttestationsController,
    VerificationController,
    ProvingArtifactsController,
    SessionStatusController,
    CompliancePolicyController,
  ],
  providers: [
    ComplianceActivity,
    SessionAdmission,
    ActivationThrottle,
    complianceKeysProvider,
    RegistryConnection,
    AttesterService,
    AttesterHealthIndicator,
    AttesterBalanceMonitor,
    RevocationRetry,
    SessionsService,
    SessionStatusService,
    SiweNoncesService,
    OnboardingService,
    VerifyChallengesService,
    ProofVerifierService,
    VerificationService,
    SanctionsScreen,
    AttestationRevocationCheck,
    // The screening watcher's checks, in order: the first that revokes names the reason. A
    // source of sessions adds its own RevocationCheck here.
    {
      provide: REVOCATION_CHECKS,
      useFactory: (
        dataSource: DataSource,
        attestations: AttestationRevocationCheck,
      ): RevocationCheck[] => [
        sanctionsCheck,
        new ProofSessionCheck(dataSource, CREDENTIAL_REVOKED),
        new ProofSessionCheck(dataSource, ISSUER_REVOKED),
        attestations,
      ],
      inject: [getDataSourceToken(), AttestationRevocationCheck],
    },
    ScreeningWatcher,
    AttestationIndex,
    AttestationReaderService,
    AttestationActivationService,
    CompliancePolicyService,
    ProvingArtifactsService,
  ],
  exports: [
    AttestationReaderService,
    CompliancePolicyService,
    SanctionsScreen,
    ScreeningWatcher,
    SessionsService,
    AttesterService,
    VerifyChallengesService,
    CredentialsModule,
    SiweNoncesService,
  ],
})
export class ComplianceModule {}
