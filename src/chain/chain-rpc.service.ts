/**
 * Every chain read goes through here: a bounded time budget (CHAIN_TIMEOUT_MS, retries included)
 * and bounded retries of an unreachable node only (chain-errors.ts classifies). A revert is an
 * answer, never retried: it comes back as ChainRevertError with its decoded reason. An
 * unreachable or slow RPC becomes ApiError CHAIN_UNAVAILABLE (503, phase preflight): never a
 * hang, never a 500, never RPC text to clients.
 */
import { Injectable, Logger } from '@nestjs/common';
import { JsonRpcProvider } from 'ethers';
import { ChainConfig } from '../config/chain.config';
import { ApiError } from '../common/errors/api-error';
import { ChainConnection } from './chain-connection';
import { classifyChainFailure } from './chain-errors';
import { JsonRpcBatchRefused, JsonRpcError, RpcCall } from './json-rpc-http';
import { isProviderFailure } from './rpc-failover';
import { DecodedRevert, decodeRevert, revertDataOf } from './encoding/revert-decoder';

export interface ChainTx {
  to: string;
  data: string;
  from?: string;
  value?: bigint;
  /** Gas limit of the call (a relayed transaction is simulated with its own). */
  gas?: bigint;
}

/** A block as eth_call takes it: a tag, or a number. */
export type BlockTag = 'latest' | 'pending' | number;

/** A transaction as eth_getTransactionByHash returns it (quantities in hex); only what we read. */
export interface RawTransaction {
  hash: string;
  from: string;
  to: string | null;
  nonce: string;
  input: string;
  value: string;
  gas: string;
  blockNumber: string | null;
}

/** A receipt as eth_getTransactionReceipt returns it (quantities in hex); only what we read. */
export interface RawReceipt {
  transactionHash: string;
  blockNumber: string;
  status: string;
  gasUsed: string;
  effectiveGasPrice?: string;
  from: string;
  to: string | null;
  logs: RawLog[];
}

/** What eth_sendRawTransaction answered: the hash, or the node's refusal (its JSON-RPC error). */
export type RawSendResult =
  { ok: true; hash: string } | { ok: false; rpcCode: number; message: string };

export interface LogFilter {
  address: string;
  /** topic0..3; null matches anything, a list any of its topics. */
  topics: Array<string | readonly string[] | null>;
  fromBlock: number;
  toBlock: number;
}

/** A log as the JSON-RPC returns it (quantities in hex). */
export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  logIndex: string;
}

export type GasEstimate = { ok: true; gas: bigint } | { ok: false; revert: DecodedRevert };

/** A call reverted on chain (the RPC answered). */
export class ChainRevertError extends Error {
  constructor(
    readonly revertData: string,
    readonly revert: DecodedRevert = decodeRevert(revertData),
  ) {
    super(`execution reverted: ${revert.summary}`);
    this.name = 'ChainRevertError';
  }
}

/** One answer of ChainRpcService.batch: the result, a revert (decoded), or the node's other error. */
export type BatchAnswer =
  { ok: true; result: unknown } | { ok: false; error: ChainRevertError | JsonRpcError };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Injectable()
export class ChainRpcService {
  private readonly logger = new Logger(ChainRpcService.name);

  constructor(
    private readonly connection: ChainConnection,
    private readonly config: ChainConfig,
  ) {}

  get provider(): JsonRpcProvider {
    return this.connection.provider;
  }

  /**
   * eth_call at `block` (default latest); throws ChainRevertError on revert, ApiError
   * CHAIN_UNAVAILABLE otherwise. `codeOverride` runs the call with other code at some addresses
   * (eth_call's state override set, as geth and Hardhat take it): e.g. a batch replayed in a
   * Safe's own context.
   */
  async call(
    tx: ChainTx,
    block: BlockTag = 'latest',
    codeOverride?: Record<string, string>,
  ): Promise<string> {
    const params: unknown[] = [rpcTx(tx), blockParam(block)];
    if (codeOverride)
      params.push(
        Object.fromEntries(Object.entries(codeOverride).map(([at, code]) => [at, { code }])),
      );
    return this.withBudget('eth_call', (ms) => this.send<string>('eth_call', params, ms));
  }

  /** eth_getCode at latest: the account's runtime code ('0x' for an EOA). */
  async code(address: string): Promise<string> {
    return this.withBudget('eth_getCode', (ms) =>
      this.send<string>('eth_getCode', [address, 'latest'], ms),
    );
  }

  /** eth_getStorageAt at latest: one 32-byte slot. */
  async storageAt(address: string, slot: string): Promise<string> {
    return this.withBudget('eth_getStorageAt', (ms) =>
      this.send<string>('eth_getStorageAt', [address, slot, 'latest'], ms),
    );
  }

  /**
   * eth_sendRawTransaction. A JSON-RPC refusal ("nonce too low", "insufficient funds", a revert
   * the node reports on send) is an answer, returned for the caller to classify; only an
   * unreachable or slow node is CHAIN_UNAVAILABLE. Resending the same bytes is safe (same hash).
   */
  async sendRawTransaction(raw: string): Promise<RawSendResult> {
    return this.withBudget('eth_sendRawTransaction', async (ms): Promise<RawSendResult> => {
      try {
        return { ok: true, hash: await this.send<string>('eth_sendRawTransaction', [raw], ms) };
      } catch (err) {
        if (err instanceof JsonRpcError && !isProviderFailure(err))
          return { ok: false, rpcCode: err.rpcCode, message: err.message };
        throw err;
      }
    });
  }

  /** eth_getTransactionByHash: null when the node does not know the hash. */
  async transactionByHash(hash: string): Promise<RawTransaction | null> {
    return this.withBudget('eth_getTransactionByHash', (ms) =>
      this.send<RawTransaction | null>('eth_getTransactionByHash', [hash], ms),
    );
  }

  /** eth_getTransactionReceipt: null while pending (or unknown). */
  async transactionReceipt(hash: string): Promise<RawReceipt | null> {
    return this.withBudget('eth_getTransactionReceipt', (ms) =>
      this.send<RawReceipt | null>('eth_getTransactionReceipt', [hash], ms),
    );
  }

  /** eth_getBalance at latest (wei). */
  async balance(address: string): Promise<bigint> {
    return BigInt(
      await this.withBudget('eth_getBalance', (ms) =>
        this.send<string>('eth_getBalance', [address, 'latest'], ms),
      ),
    );
  }

  /** eth_getTransactionCount at `block`: 'pending' gives the next nonce the node would accept. */
  async transactionCount(address: string, block: BlockTag = 'pending'): Promise<number> {
    return Number(
      await this.withBudget('eth_getTransactionCount', (ms) =>
        this.send<string>('eth_getTransactionCount', [address, blockParam(block)], ms),
      ),
    );
  }

  /** eth_estimateGas; a revert is reported (decoded), not thrown. */
  async estimateGas(tx: ChainTx): Promise<GasEstimate> {
    try {
      const gas = await this.withBudget('eth_estimateGas', (ms) =>
        this.send<string>('eth_estimateGas', [rpcTx(tx)], ms),
      );
      return { ok: true, gas: BigInt(gas) };
    } catch (err) {
      if (err instanceof ChainRevertError) return { ok: false, revert: err.revert };
      throw err;
    }
  }

  /** eth_gasPrice: what a transaction sent now pays per gas (eth_call cannot read it: it runs at base fee 0). */
  async gasPrice(): Promise<bigint> {
    return BigInt(
      await this.withBudget('eth_gasPrice', (ms) => this.send<string>('eth_gasPrice', [], ms)),
    );
  }

  /** eth_blockNumber (the head the log pages stop at). */
  async blockNumber(): Promise<number> {
    return Number(
      await this.withBudget('eth_blockNumber', (ms) =>
        this.send<string>('eth_blockNumber', [], ms),
      ),
    );
  }

  /** The latest block's timestamp (unix s): how old the chain's head is (metrics). */
  async latestBlockTime(timeoutMs = this.config.healthTimeoutMs): Promise<number> {
    const block = await this.withBudget(
      'eth_getBlockByNumber',
      (ms) =>
        this.send<{ timestamp: string } | null>('eth_getBlockByNumber', ['latest', false], ms),
      timeoutMs,
      0,
    );
    if (!block) throw new Error('the node has no latest block');
    return Number(block.timestamp);
  }

  /** eth_getLogs over one block range (callers page: nodes cap the range or the result size). */
  async getLogs(filter: LogFilter): Promise<RawLog[]> {
    return this.withBudget('eth_getLogs', (ms) =>
      this.send<RawLog[]>(
        'eth_getLogs',
        [
          {
            address: filter.address,
            topics: filter.topics,
            fromBlock: `0x${filter.fromBlock.toString(16)}`,
            toBlock: `0x${filter.toBlock.toString(16)}`,
          },
        ],
        ms,
      ),
    );
  }

  /** eth_chainId straight from the node (the provider's static network is not asked). */
  async chainId(timeoutMs = this.config.healthTimeoutMs): Promise<number> {
    const hex = await this.withBudget(
      'eth_chainId',
      (ms) => this.send<string>('eth_chainId', [], ms),
      timeoutMs,
      0,
    );
    return Number(hex);
  }

  /**
   * Several calls in ONE JSON-RPC batch (one HTTP request), within one time budget: each answer in
   * order, a revert as ChainRevertError, another JSON-RPC error as the node sent it. An outage is
   * CHAIN_UNAVAILABLE, as for single calls. A node that refuses batches (JsonRpcBatchRefused) gets
   * the calls one by one, in parallel, from then on.
   */
  async batch(calls: RpcCall[]): Promise<BatchAnswer[]> {
    return this.withBudget('batch', async (ms) => {
      if (!this.batchesRefused) {
        try {
          const answers = await this.connection.reads.sendBatch(calls, ms);
          return answers.map((a) =>
            a.ok ? a : { ok: false as const, error: answerError(a.error) },
          );
        } catch (err) {
          if (!(err instanceof JsonRpcBatchRefused)) throw err;
          this.batchesRefused = true;
          this.logger.warn(`${err.message}; sending calls one by one from now on`);
        }
      }
      return Promise.all(
        calls.map((call) =>
          this.send<unknown>(call.method, call.params, ms).then(
            (result): BatchAnswer => ({ ok: true, result }),
            (err: unknown): BatchAnswer => {
              if (err instanceof JsonRpcError && !isProviderFailure(err))
                return { ok: false, error: answerError(err) };
              throw err;
            },
          ),
        ),
      );
    });
  }

  private batchesRefused = false;

  private send<T>(method: string, params: unknown[], timeoutMs: number): Promise<T> {
    return this.connection.reads.send<T>(method, params, timeoutMs);
  }

  /**
   * Runs `fn` within the time budget, retrying an unreachable node while budget remains: `fn`
   * gets the milliseconds left and the transport enforces them (one timer per call, in
   * json-rpc-http.ts).
   * Reverts surface as ChainRevertError; anything else as ApiError CHAIN_UNAVAILABLE.
   */
  async withBudget<T>(
    operation: string,
    fn: (remainingMs: number) => Promise<T>,
    budgetMs = this.config.timeoutMs,
    retries = this.config.retries,
  ): Promise<T> {
    const deadline = Date.now() + budgetMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn(Math.max(1, deadline - Date.now()));
      } catch (err) {
        const failure = classifyChainFailure(err);
        if (failure.kind === 'revert') throw new ChainRevertError(failure.revertData);
        const left = deadline - Date.now();
        const backoff = 100 * (attempt + 1);
        if (failure.kind !== 'unreachable' || attempt >= retries || left <= backoff + 50) {
          this.logger.warn(`${operation} failed after ${attempt + 1} attempt(s): ${describe(err)}`);
          throw new ApiError(
            'CHAIN_UNAVAILABLE',
            'The chain RPC is unreachable or did not answer in time',
            { cause: err },
          );
        }
        await sleep(backoff);
      }
    }
  }
}

/** A JSON-RPC error of one call: a revert (its data decoded) or the node's refusal as is. */
function answerError(error: JsonRpcError): ChainRevertError | JsonRpcError {
  const data = error.code === 'CALL_EXCEPTION' ? revertDataOf(error) : undefined;
  return data === undefined ? error : new ChainRevertError(data);
}

/** Quantities as the JSON-RPC wants them (hex), only the fields a read needs. */
export function rpcTx(tx: ChainTx): Record<string, string> {
  const out: Record<string, string> = { to: tx.to, data: tx.data };
  if (tx.from) out.from = tx.from;
  if (tx.value !== undefined && tx.value !== 0n) out.value = `0x${tx.value.toString(16)}`;
  if (tx.gas !== undefined) out.gas = `0x${tx.gas.toString(16)}`;
  return out;
}

export function blockParam(block: BlockTag): string {
  return typeof block === 'number' ? `0x${block.toString(16)}` : block;
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message.slice(0, 200)}`;
  return String(err).slice(0, 200);
}
