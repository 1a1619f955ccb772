import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import {
  BatchAnswer,
  blockParam,
  ChainRevertError,
  ChainRpcService,
  ChainTx,
  GasEstimate,
  rpcTx,
} from '../chain-rpc.service';
import { DecodedRevert, decodeRevert } from '../encoding/revert-decoder';
import type { RpcCall } from '../json-rpc-http';
import {
  callRevertOf,
  decodeSimulateResult,
  walletSimulationCall,
  WalletSimulationRequest,
} from './wallet-simulation';

/**
 * How a wallet simulation ended: the balances after the calls and each call's gas; a revert (the
 * call that reverted, when the simulator names it, and its decoded reason); or no answer the
 * simulation could use (the node refused the state override, say: `unavailable` is for logs).
 */
export type WalletSimulationOutcome =
  | { ok: true; blockNumber: number; balancesAfter: bigint[]; gasUsed: bigint[] }
  | { ok: false; blockNumber: number; callIndex: number | null; revert: DecodedRevert }
  | { ok: false; blockNumber: number; unavailable: string };

/**
 * Runs a receipt's simulation (wallet-simulation.ts) at one block, riding in one JSON-RPC batch
 * with the build's eth_estimateGas when there is one: one HTTP request for both.
 */
@Injectable()
export class WalletSimulatorService {
  private readonly logger = new Logger(WalletSimulatorService.name);

  constructor(private readonly rpc: ChainRpcService) {}

  async estimateAndSimulate(
    estimate: ChainTx | null,
    request: WalletSimulationRequest,
    blockNumber: number,
  ): Promise<{ estimate: GasEstimate | null; simulation: WalletSimulationOutcome }> {
    const simulation = walletSimulationCall(request);
    const calls: RpcCall[] = [
      {
        method: 'eth_call',
        params: [simulation.tx, blockParam(blockNumber), simulation.stateOverride],
      },
    ];
    if (estimate) calls.push({ method: 'eth_estimateGas', params: [rpcTx(estimate)] });
    const [simulated, estimated] = await this.rpc.batch(calls);
    return {
      estimate: estimated ? gasEstimateOf(estimated) : null,
      simulation: this.outcomeOf(simulated, blockNumber),
    };
  }

  private outcomeOf(answer: BatchAnswer, blockNumber: number): WalletSimulationOutcome {
    if (answer.ok) {
      try {
        return { ok: true, blockNumber, ...decodeSimulateResult(answer.result as string) };
      } catch (err) {
        return this.unavailable(blockNumber, (err as Error).message);
      }
    }
    if (answer.error instanceof ChainRevertError) {
      const named = callRevertOf(answer.error.revertData);
      return named
        ? { ok: false, blockNumber, callIndex: named.index, revert: decodeRevert(named.reason) }
        : { ok: false, blockNumber, callIndex: null, revert: answer.error.revert };
    }
    return this.unavailable(blockNumber, answer.error.message);
  }

  private unavailable(blockNumber: number, reason: string): WalletSimulationOutcome {
    this.logger.warn(
      { event: 'chain.simulation.unavailable', reason: reason.slice(0, 300) },
      'the node did not run the wallet simulation (eth_call with a state override)',
    );
    return { ok: false, blockNumber, unavailable: reason.slice(0, 300) };
  }
}

/** eth_estimateGas's answer as ChainRpcService.estimateGas gives it: a refusal that is no revert is an outage. */
function gasEstimateOf(answer: BatchAnswer): GasEstimate {
  if (answer.ok) return { ok: true, gas: BigInt(answer.result as string) };
  if (answer.error instanceof ChainRevertError) return { ok: false, revert: answer.error.revert };
  throw new ApiError(
    'CHAIN_UNAVAILABLE',
    'The chain RPC is unreachable or did not answer in time',
    {
      cause: answer.error,
    },
  );
}
