import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OnboardingController } from './onboarding/onboarding.controller';
import { OnboardingService } from './onboarding/onboarding.service';
import { SiweNonce } from './onboarding/siwe-nonce.entity';
import { SiweNoncesService } from './onboarding/siwe-nonces.service';
import { AttesterService } from './sessions/attester.service';
import { RegistryConnection } from './sessions/registry-connection';
import { SessionsService } from './sessions/sessions.service';
import { ProofNullifier } from './verification/proof-nullifier.entity';
import { ProofNullifiersService } from './verification/proof-nullifiers.service';
import { VerificationController } from './verification/verification.controller';
import { VerificationService } from './verification/verification.service';
import { WalletsModule } from './wallets/wallets.module';

/** Onboarding (wallet binding, SIWE), compliance sessions (attester) and ZK verification. */
@Module({
  imports: [WalletsModule, TypeOrmModule.forFeature([SiweNonce, ProofNullifier])],
  controllers: [OnboardingController, VerificationController],
  providers: [
    RegistryConnection,
    AttesterService,
    SessionsService,
    SiweNoncesService,
    OnboardingService,
    ProofNullifiersService,
    VerificationService,
  ],
  exports: [SessionsService, SiweNoncesService],
})
export class ComplianceModule {}
