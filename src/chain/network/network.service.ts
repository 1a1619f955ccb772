import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { ChainConnection } from '../chain-connection';
import type {
  ChainContracts,
  DeprecatedItem,
  NetworkDefinition,
  PoolKeyInfo,
  TokenInfo,
} from './network.types';

/** Addresses, tokens, the pool key and deprecated items of the network the service targets. */
@Injectable()
export class NetworkService {
  readonly definition: NetworkDefinition;

  constructor(connection: ChainConnection) {
    this.definition = connection.network;
  }

  get chainId(): number {
    return this.definition.chainId;
  }

  get contracts(): ChainContracts {
    return this.definition.contracts;
  }

  get tokens(): TokenInfo[] {
    return [this.definition.tokens.WETH, this.definition.tokens.tUSDC];
  }

  get poolKey(): PoolKeyInfo {
    return this.definition.pool;
  }

  get deprecated(): DeprecatedItem[] {
    return this.definition.deprecated;
  }

  /** A supported token by address (any case), or undefined. */
  findToken(address: string): TokenInfo | undefined {
    const wanted = address.toLowerCase();
    return this.tokens.find((t) => t.address.toLowerCase() === wanted);
  }

  /** A deprecated token or hook by address (any case), with its replacement, or undefined. */
  findDeprecated(address: string): DeprecatedItem | undefined {
    const wanted = address.toLowerCase();
    return this.deprecated.find((d) => d.address.toLowerCase() === wanted);
  }

  checksum(address: string): string {
    return getAddress(address.toLowerCase());
  }
}
