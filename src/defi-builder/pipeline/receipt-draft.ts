/**
 * What a build tells the receipts module (issue 56), pure: the simulation to run (the build's
 * calls from the wallet, and the tokens whose balances the preflight read before them), the
 * simulation's result as the receipt states it, today's build-time rule results, and the
 * tolerance an execution is held to.
 */
import type { WalletSimulationOutcome } from '../../chain/simulation/wallet-simulator.service';
import {
  transactionGasOf,
  WalletSimulationRequest,
} from '../../chain/simulation/wallet-simulation';
import {
  BalanceChange,
  ETH_TOKEN,
  ReceiptFacts,
  ReceiptSimulation,
  ReceiptTolerance,
  RuleResult,
} from '../../receipts/receipt.types';
import { sortedChanges } from '../../receipts/execution/execution-effects';
import type { Call } from '../defi-builder.types';
import type { Preflight } from '../preflight/preflight.service';

/** The simulation of a build, with the balances the preflight read at the same block. */
export interface ReceiptSimulationPlan extends WalletSimulationRequest {
  blockNumber: number;
  before: bigint[];
}

/** Every token the preflight read for the wallet (ETH first), and the build's calls in order. */
export function simulationPlanOf(pre: Preflight, calls: readonly Call[]): ReceiptSimulationPlan {
  const symbols = Object.keys(pre.state.balances);
  return {
    wallet: pre.user,
    calls: calls.map((call) => ({ to: call.to, data: call.data, value: BigInt(call.value) })),
    tokens: symbols.map((symbol) =>
      symbol === 'ETH' ? ETH_TOKEN : pre.network.tokens[symbol].address,
    ),
    before: symbols.map((symbol) => pre.state.balances[symbol]),
    blockNumber: pre.state.blockNumber,
  };
}

/** The receipt's `simulation` from what the node answered (or why it was not asked). */
export function receiptSimulationOf(
  plan: ReceiptSimulationPlan,
  outcome: WalletSimulationOutcome | NonNullable<ReceiptSimulation['skipped']>,
): ReceiptSimulation {
  const simulation = (
    status: ReceiptSimulation['status'],
    gasUsed: string | null = null,
    balanceChanges: BalanceChange[] = [],
  ): ReceiptSimulation => ({
    method: 'eth_call+stateOverride',
    blockNumber: plan.blockNumber,
    status,
    gasUsed,
    balanceChanges,
  });
  if (typeof outcome === 'string')
    return Object.assign(simulation('skipped'), { skipped: outcome });
  if (outcome.ok) {
    const balanceChanges = sortedChanges(
      new Map(plan.tokens.map((token, i) => [token, outcome.balancesAfter[i] - plan.before[i]])),
    );
    const last = plan.calls.length - 1;
    const gas = transactionGasOf(plan.calls[last], outcome.gasUsed[last]);
    return simulation('success', gas.toString(), balanceChanges);
  }
  if ('unavailable' in outcome) return simulation('unavailable');
  return Object.assign(simulation('reverted'), {
    revert: {
      callIndex: outcome.callIndex,
      code: outcome.revert.code,
      reason: outcome.revert.summary,
    },
  });
}

/** Today's build-time facts: the session and the sanctions screen, read in the preflight's batch. */
export function buildFacts(pre: Preflight, needsSession: boolean): ReceiptFacts {
  const { state, network } = pre;
  const oracle = network.compliance.sanctionsOracle;
  const at = `at block ${state.blockNumber}`;
  const session: RuleResult = pre.session.active
    ? {
        rule: 'session',
        result: 'pass',
        at: 'build',
        detail: `active until ${pre.session.activeUntil} ${at}`,
      }
    : {
        rule: 'session',
        result: needsSession ? 'fail' : 'not_applicable',
        at: 'build',
        detail: needsSession
          ? `no active session ${at} (built with buildOnly)`
          : 'an exit needs no session',
      };
  const sanctions: RuleResult =
    oracle === null
      ? {
          rule: 'sanctions',
          result: 'not_applicable',
          at: 'build',
          detail: 'the network names no sanctions oracle',
        }
      : {
          rule: 'sanctions',
          result: state.sanctioned ? 'fail' : 'pass',
          at: 'build',
          detail: `${oracle} ${state.sanctioned ? 'lists the wallet' : 'does not list the wallet'} ${at}`,
        };
  return {
    // The version is the one the session's opening was judged under (receipt-document.ts).
    policy: { version: null, rules: [session, sanctions] },
    sanctions: { oracle, blockNumber: state.blockNumber, listed: state.sanctioned },
    authorization: null,
    approval: null,
  };
}

const BPS = 10_000n;

/** ceil(|a - b| * 10000 / b) in basis points, for a limit a against its quote b (> 0). */
function bpsBetween(limit: bigint, quoted: bigint): number {
  const diff = limit > quoted ? limit - quoted : quoted - limit;
  return Number((diff * BPS + quoted - 1n) / quoted);
}

/**
 * The bound an execution is held to, from the operation's own limits: a swap's exact side must
 * match, its other side stay within the slippage it was built with (slippageBps, or what the
 * caller's explicit limit allows against the quote); a decrease within its slippageBps; a mint or
 * an increase within what its maximum amounts allow over the expected ones; a collect has none.
 */
export function toleranceOf(
  details: Record<string, unknown>,
  tokens: { in?: string; out?: string },
): ReceiptTolerance {
  const big = (key: string): bigint | null =>
    typeof details[key] === 'string' ? BigInt(details[key] as string) : null;
  if (details.tradeType === 'EXACT_INPUT' || details.tradeType === 'EXACT_OUTPUT') {
    const exactIn = details.tradeType === 'EXACT_INPUT';
    const quoted = big(exactIn ? 'quotedAmountOut' : 'quotedAmountIn');
    const limit = big(exactIn ? 'minAmountOut' : 'maxAmountIn');
    const slippage = details.slippageBps;
    const toleranceBps =
      typeof slippage === 'number'
        ? slippage
        : quoted !== null && quoted > 0n && limit !== null
          ? bpsBetween(limit, quoted)
          : null;
    const exact = exactIn ? tokens.in : tokens.out;
    return { toleranceBps, exact: exact ? [exact] : [] };
  }
  if (typeof details.slippageBps === 'number')
    return { toleranceBps: details.slippageBps, exact: [] };
  const pairs = [
    [big('amount0Max'), big('expectedAmount0')],
    [big('amount1Max'), big('expectedAmount1')],
  ].filter((p): p is [bigint, bigint] => p[0] !== null && p[1] !== null && p[1] > 0n);
  if (pairs.length === 0) return { toleranceBps: null, exact: [] };
  return {
    toleranceBps: Math.max(...pairs.map(([max, expected]) => bpsBetween(max, expected))),
    exact: [],
  };
}
