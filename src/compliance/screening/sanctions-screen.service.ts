/**
 * The service's side of the sanctions gate: the network's oracle (compliance.sanctionsOracle,
 * Chainalysis' SanctionsList interface) asked about one wallet (activation) or many at once with
 * their sessions (the screening watcher: one Multicall3 eth_call per batch). Fails closed like
 * the hook: an oracle that reverts or answers anything but `false` lists the wallet.
 */
import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { ChainConnection } from '../../chain/chain-connection';
import { readWord } from '../../chain/encoding/abi-words';
import {
  Call3,
  Call3Result,
  decodeAggregate3,
  encodeAggregate3,
} from '../../chain/encoding/multicall';
import {
  clockCall,
  isSanctionedAnswer,
  sanctionsCall,
  sessionCall,
} from '../../chain/encoding/wallet-reads';
import { ApiError } from '../../common/errors/api-error';
import type { ErrorPhase } from '../../common/errors/error-catalogue';
import { chainUnavailable } from '../sessions/chain-errors';

/** A wallet's session on chain and the oracle's answer, read at one block. */
export interface ScreenedWallet {
  walletAddress: string;
  activeUntil: number;
  active: boolean;
  sanctioned: boolean;
  /** The block timestamp (unix s) of the read. */
  chainTime: number;
}

/** 403 WALLET_SANCTIONED naming the wallet (phase preflight unless said: the relay's is broadcast). */
export function walletSanctionedError(
  wallet: string,
  consequence = 'no compliance session can be opened for it',
  phase?: ErrorPhase,
): ApiError {
  const walletAddress = getAddress(wallet);
  return new ApiError(
    'WALLET_SANCTIONED',
    `Wallet ${walletAddress} is on the sanctions list of this network's oracle: ${consequence}`,
    { extra: { walletAddress }, ...(phase ? { phase } : {}) },
  );
}

@Injectable()
export class SanctionsScreen {
  constructor(private readonly chain: ChainConnection) {}

  /** The oracle of this network; null: no screening. */
  get oracle(): string | null {
    return this.chain.network.compliance.sanctionsOracle;
  }

  /** Throws WALLET_SANCTIONED when the oracle lists the wallet (or cannot answer). */
  async assertNotSanctioned(wallet: string): Promise<void> {
    const [screened] = await this.screen([wallet]);
    if (screened.sanctioned) throw walletSanctionedError(wallet);
  }

  /** The wallet's session and the oracle's answer, in one eth_call (no oracle: not listed). */
  async screenOne(wallet: string): Promise<ScreenedWallet> {
    return (await this.screen([wallet]))[0];
  }

  /** Sessions and oracle answers of `wallets`, in ONE eth_call (the chain clock read with them). */
  async screen(wallets: readonly string[]): Promise<ScreenedWallet[]> {
    const network = this.chain.network;
    const c = network.contracts;
    const oracle = this.oracle;
    const calls: Call3[] = [clockCall(network)];
    for (const wallet of wallets) {
      calls.push(sessionCall(network, wallet));
      if (oracle) calls.push(sanctionsCall(oracle, wallet));
    }
    let results: Call3Result[];
    try {
      const raw = await this.chain.provider.call({
        to: c.multicall3,
        data: encodeAggregate3(calls),
      });
      results = decodeAggregate3(raw);
    } catch (error) {
      throw chainUnavailable(error);
    }
    const now = Number(readWord(results[0].returnData, 0));
    const stride = oracle ? 2 : 1;
    return wallets.map((wallet, i) => {
      const activeUntil = Number(readWord(results[1 + i * stride].returnData, 0));
      return {
        walletAddress: getAddress(wallet),
        activeUntil,
        active: now < activeUntil,
        sanctioned: oracle ? isSanctionedAnswer(results[2 + i * stride]) : false,
        chainTime: now,
      };
    });
  }
}
