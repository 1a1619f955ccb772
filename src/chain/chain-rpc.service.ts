/**
 * Every chain read goes through here: a bounded time budget (CHAIN_TIMEOUT_MS, retries included)
 * and bounded retries of transport failures only. A revert is an answer, never retried: it comes
 * back as ChainRevertError with its decoded reason. An unreachable or slow RPC becomes ApiError
 * CHAIN_UNAVAILABLE (503, phase preflight): never a hang, never a 500, never RPC text to clients.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { JsonRpcProvider } from 'ethers';
import { chainConfig, ChainConfig } from '../config/chain.config';
import { ApiError } from '../common/errors/api-error';
import { ChainConnection } from './chain-connection';
import { DecodedRevert, decodeRevert, revertDataOf } from './encoding/revert-decoder';
import { JsonRpcClient } from './json-rpc-client';

export interface ChainTx {
  to: string;
  data: string;
  from?: string;
  value?: bigint;
}

export type GasEstimate =
  { ok: true; gas: bigint } | { ok: false; revertData: string; revert: DecodedRevert };

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

export class ChainTimeoutError extends Error {
  constructor(ms: number) {
    super(`chain RPC did not answer within ${ms} ms`);
    this.name = 'ChainTimeoutError';
  }
}

/** Rejects after `ms` (the underlying request also has its own FetchRequest timeout). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChainTimeoutError(ms)), Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Injectable()
export class ChainRpcService {
  private readonly logger = new Logger(ChainRpcService.name);

  constructor(
    private readonly connection: ChainConnection,
    @Inject(chainConfig.KEY) private readonly config: ChainConfig,
  ) {
    this.client = new JsonRpcClient(connection.rpcUrl);
  }

  private readonly client: JsonRpcClient;

  get provider(): JsonRpcProvider {
    return this.connection.provider;
  }

  /** eth_call at latest; throws ChainRevertError on revert, ApiError CHAIN_UNAVAILABLE otherwise. */
  async call(tx: ChainTx): Promise<string> {
    return this.withBudget('eth_call', (remainingMs) =>
      this.client.request<string>('eth_call', [rpcTx(tx), 'latest'], remainingMs),
    );
  }

  /** eth_estimateGas; a revert is reported (decoded), not thrown. */
  async estimateGas(tx: ChainTx): Promise<GasEstimate> {
    try {
      return {
        ok: true,
        gas: BigInt(
          await this.withBudget('eth_estimateGas', (remainingMs) =>
            this.client.request<string>('eth_estimateGas', [rpcTx(tx)], remainingMs),
          ),
        ),
      };
    } catch (err) {
      if (err instanceof ChainRevertError)
        return { ok: false, revertData: err.revertData, revert: err.revert };
      throw err;
    }
  }

  /** eth_chainId straight from the node (the provider's static network is not asked). */
  async chainId(timeoutMs = this.config.healthTimeoutMs): Promise<number> {
    const hex = await this.withBudget(
      'eth_chainId',
      () => this.provider.send('eth_chainId', []) as Promise<string>,
      timeoutMs,
      0,
    );
    return Number(hex);
  }

  /**
   * Runs `fn` within the time budget, retrying transport failures while budget remains.
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
        const remaining = deadline - Date.now();
        return await withTimeout(fn(remaining), remaining);
      } catch (err) {
        const revertData = err instanceof ChainTimeoutError ? undefined : revertDataOf(err);
        if (revertData !== undefined) throw new ChainRevertError(revertData);
        const left = deadline - Date.now();
        const backoff = 100 * (attempt + 1);
        if (attempt >= retries || left <= backoff + 50 || !isRetryable(err)) {
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

/** Quantities as the JSON-RPC wants them (hex), only the fields a read needs. */
function rpcTx(tx: ChainTx): Record<string, string> {
  const out: Record<string, string> = { to: tx.to, data: tx.data };
  if (tx.from) out.from = tx.from;
  if (tx.value !== undefined && tx.value !== 0n) out.value = `0x${tx.value.toString(16)}`;
  return out;
}

/**
 * Only a failed connection is worth retrying. A timeout means the node is slow or overloaded:
 * sending the same work again would add load exactly when it hurts (a retry storm).
 */
function isRetryable(err: unknown): boolean {
  if (err instanceof ChainTimeoutError) return false;
  const e = err as { name?: string; cause?: { code?: string } } | null;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return false;
  return true;
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message.slice(0, 200)}`;
  return String(err).slice(0, 200);
}
