import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainConnection } from '../chain/chain-connection';
import { complianceKeysProvider } from '../compliance/compliance-keys';
import { CredentialsModule } from '../compliance/credentials/credentials.module';
import { AttesterService } from '../compliance/sessions/attester.service';
import { RegistryConnection } from '../compliance/sessions/registry-connection';
import { VerifyChallenge } from '../compliance/verification/verify-challenge.entity';
import { VerifyChallengesService } from '../compliance/verification/verify-challenges.service';
import { chainConfig, ChainConfig } from '../config/chain.config';
import { serviceChain } from './service-chain';

/**
 * What the credential and session commands need: the demo issuer and accepted roots (database),
 * the sessions opened by credentials, and the attester. The CLI never starts a chain: without
 * CHAIN_RPC_URL it talks to the running service's embedded devnet, at the address the service
 * recorded in DATA_DIR (service-chain.ts; no connection is made until a command sends something).
 */
@Module({
  imports: [CredentialsModule, TypeOrmModule.forFeature([VerifyChallenge])],
  providers: [
    {
      provide: ChainConnection,
      useFactory: (config: ChainConfig) => {
        const { rpcUrl } = serviceChain(process.env);
        return ChainConnection.open({ ...config, rpcUrl, rpcUrls: [rpcUrl] });
      },
      inject: [chainConfig.KEY],
    },
    complianceKeysProvider,
    RegistryConnection,
    AttesterService,
    VerifyChallengesService,
  ],
})
export class CliComplianceModule {}
