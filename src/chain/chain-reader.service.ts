/**
 * The batched reader: a wallet's session, balances and Permit2 allowances, plus any extra calls a
 * caller appends (the DeFi builder's V4Quoter quote and StateView slot0), in ONE Multicall3
 * aggregate3 eth_call, i.e. one RPC request and one consistent block.
 */
import { Injectable } from '@nestjs/common';
import { ChainRpcService } from './chain-rpc.service';
import { Call3, Call3Result, decodeAggregate3, encodeAggregate3 } from './encoding/multicall';
import {
  decodeWalletState,
  WALLET_STATE_CALL_COUNT,
  walletStateCalls,
  WalletState,
} from './encoding/wallet-reads';
import { NetworkService } from './network/network.service';

export interface WalletRead {
  state: WalletState;
  /** Results of the extra calls, in the order given (check `success`: they may allow failure). */
  extra: Call3Result[];
}

@Injectable()
export class ChainReaderService {
  constructor(
    private readonly rpc: ChainRpcService,
    private readonly network: NetworkService,
  ) {}

  /** One eth_call to Multicall3.aggregate3. */
  async aggregate3(calls: readonly Call3[]): Promise<Call3Result[]> {
    const raw = await this.rpc.call({
      to: this.network.contracts.multicall3,
      data: encodeAggregate3(calls),
    });
    return decodeAggregate3(raw);
  }

  async readWallet(wallet: string, extraCalls: readonly Call3[] = []): Promise<WalletRead> {
    const results = await this.aggregate3([
      ...walletStateCalls(this.network.definition, wallet),
      ...extraCalls,
    ]);
    return { state: decodeWalletState(results), extra: results.slice(WALLET_STATE_CALL_COUNT) };
  }
}
