/**
 * Gas for a built transaction (design §4): eth_estimateGas from the user's wallet when it could
 * succeed (session active, approvals in place), reporting a revert instead of hiding it; the
 * calibrated per-operation figure otherwise.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ERROR_CATALOGUE } from '../../common/errors/error-catalogue';
import { DEFI_CHAIN, DefiChain, TxRequest } from '../chain/defi-chain.port';
import type { SimulationView, Warning } from '../defi-builder.types';
import { CALIBRATED_GAS, ESTIMATE_BUFFER_PERCENT, GasOperation, withBuffer } from './gas';

export type { GasOperation };

export interface GasPlan {
  gas: bigint;
  gasSource: 'eth_estimateGas' | 'calibrated';
  simulation: SimulationView;
  warnings: Warning[];
}

@Injectable()
export class GasEstimatorService {
  constructor(@Inject(DEFI_CHAIN) private readonly chain: DefiChain) {}

  async plan(
    operation: GasOperation,
    tx: TxRequest,
    state: { sessionActive: boolean; approvalsPending: boolean; balanceShort?: boolean },
  ): Promise<GasPlan> {
    const calibrated = CALIBRATED_GAS[operation];
    if (!state.sessionActive)
      return {
        gas: calibrated,
        gasSource: 'calibrated',
        simulation: { ok: null, skipped: 'SESSION_NOT_ACTIVE' },
        warnings: [],
      };
    // The estimate could only revert: the calibrated figure, and say why it did not run.
    const skipped = state.balanceShort
      ? 'BALANCE_INSUFFICIENT'
      : state.approvalsPending
        ? 'ALLOWANCE_INSUFFICIENT'
        : null;
    if (skipped)
      return {
        gas: calibrated,
        gasSource: 'calibrated',
        simulation: { ok: null, skipped },
        warnings: [],
      };

    const estimate = await this.chain.estimateGas(tx);
    if (estimate.ok)
      return {
        gas: withBuffer(estimate.gas, ESTIMATE_BUFFER_PERCENT),
        gasSource: 'eth_estimateGas',
        simulation: { ok: true },
        warnings: [],
      };
    const revertCode = estimate.revert.code;
    const revertReason = estimate.revert.summary;
    return {
      gas: calibrated,
      gasSource: 'calibrated',
      simulation: { ok: false, revertCode, revertReason },
      warnings: [
        {
          code: 'SIMULATION_REVERTED',
          message: `eth_estimateGas reverted with ${revertReason}: broadcasting this transaction now would fail`,
          hint: ERROR_CATALOGUE.SIMULATION_REVERTED.hint,
          revertCode,
        },
      ],
    };
  }
}
