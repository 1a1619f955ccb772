/**
 * Gas for a built transaction (design §4): eth_estimateGas from the user's wallet when it could
 * succeed (session active, approvals in place), reporting a revert instead of hiding it; the
 * calibrated per-operation figure otherwise. The receipt's simulation (issue 56) rides in the
 * same JSON-RPC batch as the estimate; with approvals still pending it runs alone (the approvals
 * first, then the transaction); it does not run when it could only revert (no session, or a
 * balance short).
 */
import { Inject, Injectable } from '@nestjs/common';
import { ERROR_CATALOGUE } from '../../common/errors/error-catalogue';
import {
  DEFI_CHAIN,
  DefiChain,
  GasEstimate,
  TxRequest,
  WalletSimulationOutcome,
} from '../chain/defi-chain.port';
import type { SimulationView, Warning } from '../defi-builder.types';
import { CALIBRATED_GAS, ESTIMATE_BUFFER_PERCENT, GasOperation, withBuffer } from './gas';
import type { ReceiptSimulationPlan } from './receipt-draft';

export type { GasOperation };

/** The receipt's simulation: what the node answered, or why it was not asked. */
export type WalletSimulation =
  WalletSimulationOutcome | 'SESSION_NOT_ACTIVE' | 'BALANCE_INSUFFICIENT';

export interface GasPlan {
  gas: bigint;
  gasSource: 'eth_estimateGas' | 'calibrated';
  simulation: SimulationView;
  warnings: Warning[];
  /** null when no receipt simulation was asked for. */
  walletSimulation: WalletSimulation | null;
}

@Injectable()
export class GasEstimatorService {
  constructor(@Inject(DEFI_CHAIN) private readonly chain: DefiChain) {}

  async plan(
    operation: GasOperation,
    tx: TxRequest,
    state: { sessionActive: boolean; approvalsPending: boolean; balanceShort?: boolean },
    receipt: ReceiptSimulationPlan | null = null,
  ): Promise<GasPlan> {
    const calibrated = CALIBRATED_GAS[operation];
    const notRun = (
      skipped: NonNullable<SimulationView['skipped']>,
      walletSimulation: WalletSimulation | null,
    ): GasPlan => ({
      gas: calibrated,
      gasSource: 'calibrated',
      simulation: { ok: null, skipped },
      warnings: [],
      walletSimulation: receipt ? walletSimulation : null,
    });
    if (!state.sessionActive) return notRun('SESSION_NOT_ACTIVE', 'SESSION_NOT_ACTIVE');
    // The estimate could only revert: the calibrated figure, and say why it did not run.
    if (state.balanceShort) return notRun('BALANCE_INSUFFICIENT', 'BALANCE_INSUFFICIENT');
    if (state.approvalsPending) {
      const ran = receipt
        ? await this.chain.estimateAndSimulate(null, receipt, receipt.blockNumber)
        : null;
      return notRun('ALLOWANCE_INSUFFICIENT', ran?.simulation ?? null);
    }
    let estimate: GasEstimate;
    let walletSimulation: WalletSimulation | null = null;
    if (receipt) {
      const ran = await this.chain.estimateAndSimulate(tx, receipt, receipt.blockNumber);
      estimate = ran.estimate!;
      walletSimulation = ran.simulation;
    } else {
      estimate = await this.chain.estimateGas(tx);
    }
    if (estimate.ok)
      return {
        gas: withBuffer(estimate.gas, ESTIMATE_BUFFER_PERCENT),
        gasSource: 'eth_estimateGas',
        simulation: { ok: true },
        warnings: [],
        walletSimulation,
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
      walletSimulation,
    };
  }
}
