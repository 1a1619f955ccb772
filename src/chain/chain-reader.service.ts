/**
 * The batched reader: THE wallet-read batch (encoding/wallet-reads.ts) plus any calls a caller
 * appends (the DeFi builder's quote and slot0), in ONE Multicall3 aggregate3 eth_call: one RPC
 * request, one consistent block, one clock.
 */
import { selectorOf } from './abi/selectors';
import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { MULTICALL3 } from './abi/multicall3';
import { readWord, ReturnDataError } from './encoding/abi-words';
import { ChainRpcService, LogFilter, RawLog } from './chain-rpc.service';
import { blockPages, readPages } from './logs/log-pages';
import { Call3, Call3Result, decodeAggregate3, encodeAggregate3 } from './encoding/multicall';
import { DecodedRevert, decodeRevert } from './encoding/revert-decoder';
import {
  decodeWalletState,
  tokenSymbols,
  type TokenSymbol,
  walletReadCallCount,
  walletReadCalls,
  WalletState,
} from './encoding/wallet-reads';
import { NetworkService } from './network/network.service';

/** eth_getLogs pages requested at once: enough to hide latency, few enough not to hit a node's rate limit. */
const LOG_PAGES_IN_FLIGHT = 4;

/** The answer to one call of a batch: its return data, or why it reverted (decoded). */
export type CallOutcome = { ok: true; returnData: string } | { ok: false; revert: DecodedRevert };

/** A batch result as an outcome: its return data, or its revert decoded. */
export function outcomeOf(result: Call3Result): CallOutcome {
  return result.success
    ? { ok: true, returnData: result.returnData }
    : { ok: false, revert: decodeRevert(result.returnData) };
}

/** Shown with a read that came back empty: the usual cause is a network file for another chain. */
export const NO_CONTRACT_HINT =
  'The contracts of the network file are not on this chain (a read answered no data): run npm run cli -- verify-network --rpc <CHAIN_RPC_URL> --network-file <file>.';

/**
 * Runs `decode`; return data too short for it (an address without code answers 0x) becomes 503
 * CHAIN_UNAVAILABLE naming the contract read, instead of an unexplained 500.
 */
export function decodeChainAnswer<T>(decode: () => T, target: () => string | undefined): T {
  try {
    return decode();
  } catch (err) {
    if (!(err instanceof ReturnDataError)) throw err;
    const at = target();
    ChainReaderService.logger.warn(
      `a read of ${at ?? 'a contract'} answered no data (${err.message}): ${NO_CONTRACT_HINT}`,
    );
    throw new ApiError(
      'CHAIN_UNAVAILABLE',
      `The chain answered a read of ${at ?? 'a contract of the network'} with no data`,
      { hint: NO_CONTRACT_HINT, cause: err },
    );
  }
}

/** The target of the first call whose successful answer is shorter than one word. */
function firstEmptyAnswer(calls: readonly Call3[], results: readonly Call3Result[]) {
  const i = results.findIndex((r) => r.success && r.returnData.length < 66);
  return i < 0 ? undefined : calls[i]?.target;
}

export interface WalletRead {
  state: WalletState;
  /** Outcomes of the extra calls, in the order given (calls that allow failure may have reverted). */
  extra: CallOutcome[];
}

@Injectable()
export class ChainReaderService {
  static readonly logger = new Logger(ChainReaderService.name);

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
    const multicall3 = this.network.contracts.multicall3;
    const results = decodeChainAnswer(
      () => decodeAggregate3(raw),
      () => `Multicall3 ${multicall3}`,
    );
    if (results.length !== calls.length)
      throw new Error(`Multicall3 returned ${results.length} results for ${calls.length} calls`);
    return results;
  }

  /**
   * Every log matching `filter` from `fromBlock` to the head, `pageBlocks` blocks per
   * eth_getLogs (a few pages in flight at once), in block order.
   */
  async findLogs(
    filter: Omit<LogFilter, 'fromBlock' | 'toBlock'>,
    fromBlock: number,
    pageBlocks: number,
  ): Promise<RawLog[]> {
    const head = await this.rpc.blockNumber();
    const pages = blockPages(fromBlock, head, pageBlocks);
    return readPages(
      pages,
      (page) => this.rpc.getLogs(Object.assign({}, filter, page)),
      LOG_PAGES_IN_FLIGHT,
    );
  }

  /** The wallet's state for `symbols` (default: every token of the network), then `extraCalls`. */
  async readWallet(
    wallet: string,
    extraCalls: readonly Call3[] = [],
    symbols: readonly TokenSymbol[] = tokenSymbols(this.network.definition),
  ): Promise<WalletRead> {
    const network = this.network.definition;
    const calls = [...walletReadCalls(network, wallet, symbols), ...extraCalls];
    const results = await this.aggregate3(calls);
    return {
      state: decodeChainAnswer(
        () => decodeWalletState(results, symbols, network.compliance.sanctionsOracle !== null),
        () => firstEmptyAnswer(calls, results),
      ),
      extra: results.slice(walletReadCallCount(network, symbols)).map(outcomeOf),
    };
  }

  /** Reads that need no wallet (a quote): the block number first, then `calls`, in ONE eth_call. */
  async read(calls: readonly Call3[]): Promise<{ blockNumber: number; outcomes: CallOutcome[] }> {
    const [block, ...results] = await this.aggregate3([
      { target: this.network.contracts.multicall3, allowFailure: false, callData: BLOCK_NUMBER },
      ...calls,
    ]);
    const blockNumber = decodeChainAnswer(
      () => Number(readWord(block.returnData, 0)),
      () => `Multicall3 ${this.network.contracts.multicall3}`,
    );
    return { blockNumber, outcomes: results.map(outcomeOf) };
  }
}

const BLOCK_NUMBER = selectorOf(MULTICALL3, 'getBlockNumber');
