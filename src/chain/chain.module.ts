import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { chainConfig, ChainConfig } from '../config/chain.config';
import { ChainConnection } from './chain-connection';
import { ChainReaderService } from './chain-reader.service';
import { ContractSignatures } from './contract-signatures.service';
import { ChainRpcService } from './chain-rpc.service';
import { ChainHealthIndicator } from './chain.health';
import { ChainMetrics } from './chain.metrics';
import { ChainInstance } from './instance/chain-instance.entity';
import { ChainInstanceService } from './instance/chain-instance.service';
import { ChainResetRegistry } from './instance/chain-reset.registry';
import { NetworkFileCheck } from './network/network-file-check';
import { NetworkService } from './network/network.service';
import { WalletSimulatorService } from './simulation/wallet-simulator.service';

/**
 * Chain access for every feature module (global): the provider, the network's addresses, the
 * batched reader, and readiness. Opening the connection starts the embedded devnet when no
 * CHAIN_RPC_URL is configured, so the app is ready only once the chain is; otherwise the network
 * file is checked against the chain before the app serves (NetworkFileCheck).
 */
@Global()
@Module({
  imports: [TerminusModule, TypeOrmModule.forFeature([ChainInstance])],
  providers: [
    {
      provide: ChainConnection,
      useFactory: (config: ChainConfig) => ChainConnection.open(config),
      inject: [chainConfig.KEY],
    },
    NetworkService,
    NetworkFileCheck,
    ChainRpcService,
    ChainReaderService,
    ContractSignatures,
    ChainHealthIndicator,
    ChainMetrics,
    ChainResetRegistry,
    ChainInstanceService,
    WalletSimulatorService,
  ],
  exports: [
    ChainConnection,
    NetworkService,
    ChainRpcService,
    ChainReaderService,
    ContractSignatures,
    ChainResetRegistry,
    ChainInstanceService,
    WalletSimulatorService,
  ],
})
export class ChainModule {}
