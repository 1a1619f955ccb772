/**
 * The batched reader: THE wallet-read batch (encoding/wallet-reads.ts) plus any calls a caller
 * appends (the DeFi builder's quote and slot0), in ONE Multicall3 aggregate3 eth_call: one RPC
 * request, one consistent block, one clock.
 */
import { Injectable } from '@nestjs/common';
import { ChainRpcService } from './chain-rpc.service';
import { Call3, Call3Result, decodeAggregate3, encodeAggregate3 } from './encoding/multicall';
import {
  decodeWalletState,
  WALLET_READ_CALL_COUNT,
  walletReadCalls,
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
    const results = decodeAggregate3(raw);
    if (results.length !== calls.length)
      throw new Error(`Multicall3 returned ${results.length} results for ${calls.length} calls`);
    return results;
  }

  async readWallet(wallet: string, extraCalls: readonly Call3[] = []): Promise<WalletRead> {
    const results = await this.aggregate3([
      ...walletReadCalls(this.network.definition, wallet),
      ...extraCalls,
    ]);
    return { state: decodeWalletState(results), extra: results.slice(WALLET_READ_CALL_COUNT) };
  }
}
