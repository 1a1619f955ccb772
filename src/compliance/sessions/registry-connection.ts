/**
 * Where the ComplianceRegistry lives and how to reach it.
 *
 * The chain layer's ChainConnection (src/chain, global ChainModule) is used whenever it is
 * registered: one provider, one network definition, the embedded devnet it started. Until the
 * app registers ChainModule, this falls back to the same chain config (CHAIN_RPC_URL, default
 * the devnet on 127.0.0.1:8545; CHAIN_NETWORK + address overrides) with a provider of its own.
 */
import { Inject, Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { JsonRpcProvider } from 'ethers';
import { ChainConnection, createChainProvider } from '../../chain/chain-connection';
import { loadNetwork } from '../../chain/network/network-loader';
import { chainConfig, ChainConfig } from '../../config/chain.config';

/** One activation-side RPC call may take this long (sending and mining have their own budget). */
const FALLBACK_RPC_TIMEOUT_MS = 5_000;

@Injectable()
export class RegistryConnection implements OnModuleDestroy {
  readonly chainId: number;
  readonly registryAddress: string;
  readonly provider: JsonRpcProvider;
  private readonly ownsProvider: boolean;

  constructor(@Inject(chainConfig.KEY) config: ChainConfig, @Optional() chain?: ChainConnection) {
    const network = chain?.network ?? loadNetwork(config.network, config.overrides);
    this.chainId = network.chainId;
    this.registryAddress = network.contracts.complianceRegistry;
    this.ownsProvider = !chain;
    this.provider =
      chain?.provider ??
      createChainProvider(config.rpcUrl ?? 'http://127.0.0.1:8545', network.chainId, Math.max(config.timeoutMs, FALLBACK_RPC_TIMEOUT_MS));
  }

  onModuleDestroy(): void {
    if (this.ownsProvider) this.provider.destroy();
  }
}
