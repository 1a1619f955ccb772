/**
 * Where the ComplianceRegistry lives and how to reach it: the chain layer's one provider and
 * network definition (the global ChainModule, which also owns the embedded devnet).
 */
import { Injectable } from '@nestjs/common';
import { JsonRpcProvider } from 'ethers';
import { ChainConnection } from '../../chain/chain-connection';

@Injectable()
export class RegistryConnection {
  readonly chainId: number;
  readonly registryAddress: string;
  readonly provider: JsonRpcProvider;

  constructor(chain: ChainConnection) {
    this.chainId = chain.network.chainId;
    this.registryAddress = chain.network.contracts.complianceRegistry;
    this.provider = chain.provider;
  }
}
