/**
 * The spend plan of the preflight phase (design §4): for what a transaction will pull through
 * Permit2, the approval transactions that fix a shortfall (in broadcast order) and the matching
 * ALLOWANCE_INSUFFICIENT warning. Pure.
 */
import { SpendUse, spenderOf, TokenSymbol, WalletState } from '../../chain/encoding/wallet-reads';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ERROR_CATALOGUE } from '../../common/errors/error-catalogue';
import type { Warning } from '../defi-builder.types';
import { ApprovalStep, planApprovals } from '../encoding/approvals';
import { CALIBRATED_GAS } from '../build/gas';

export interface SpendRequest {
  use: SpendUse;
  needs: Array<{ symbol: TokenSymbol; amount: bigint }>;
}

export interface SpendPlan {
  approvals: ApprovalStep[];
  warnings: Warning[];
}

export const NOTHING_TO_SPEND: SpendPlan = { approvals: [], warnings: [] };

export function planSpend(
  network: NetworkDefinition,
  state: WalletState,
  { use, needs }: SpendRequest,
): SpendPlan {
  const approvals = planApprovals(
    needs.map(({ symbol, amount }) => ({
      token: network.tokens[symbol].address,
      amount,
      erc20ToPermit2: state.erc20ToPermit2[symbol],
      permit2: state.permit2[use][symbol],
    })),
    {
      permit2: network.contracts.permit2,
      spender: spenderOf(network, use),
      now: state.blockTimestamp,
      gas: CALIBRATED_GAS,
    },
  );
  if (approvals.length === 0) return { approvals, warnings: [] };
  const short = needs
    .filter(({ symbol }) => approvals.some((a) => a.token === network.tokens[symbol].address))
    .map(({ symbol, amount }) => ({
      symbol,
      required: amount.toString(),
      allowance: state.effective[use][symbol].toString(),
    }));
  const warning: Warning = {
    code: 'ALLOWANCE_INSUFFICIENT',
    message: `Permit2 allowance too low for ${short.map((s) => s.symbol).join(' and ')}: broadcast the ${approvals.length} transaction(s) in approvals[] first`,
    hint: ERROR_CATALOGUE.ALLOWANCE_INSUFFICIENT.hint,
    tokens: short,
  };
  return { approvals, warnings: [warning] };
}
