/** Success response shapes of design §6 (big numbers as decimal strings, addresses checksummed). */
import type { UnsignedTx } from './encoding/approvals';
import type { ApprovalView, PermitData } from './preflight/spend-plan';
import type { PoolKey } from './encoding/pool-key';
import type { RouteHopView } from './routing/pair-route';

export interface SessionView {
  active: boolean;
  /** ISO-8601 end of the compliance session (chain clock), null when none was ever opened or it was revoked. */
  activeUntil: string | null;
}

export interface Warning {
  code:
    | 'ALLOWANCE_INSUFFICIENT'
    | 'BALANCE_INSUFFICIENT'
    | 'SESSION_EXPIRES_BEFORE_DEADLINE'
    | 'SIMULATION_REVERTED';
  message: string;
  hint: string;
  [extra: string]: unknown;
}

export interface SimulationView {
  /** true: eth_estimateGas succeeded; false: it reverted (revertCode says why); null: not run. */
  ok: boolean | null;
  revertCode?: string;
  revertReason?: string;
  /** Why the simulation did not run (no active session, approvals pending). */
  skipped?: 'SESSION_NOT_ACTIVE' | 'ALLOWANCE_INSUFFICIENT' | 'BALANCE_INSUFFICIENT';
}

/** One EIP-5792 call (wallet_sendCalls): value in wei as a decimal string, like transaction.value. */
export interface Call {
  to: string;
  data: string;
  value: string;
}

export interface BuildResponseBase {
  chainId: number;
  transaction: UnsignedTx;
  /** approvals[] in order, then transaction: the whole path without a permit (pipeline/calls.ts). */
  calls: Call[];
  /** 'eth_estimateGas' (+20 %) or 'calibrated' (measured figure +30 %, see gas.ts). */
  gasSource: 'eth_estimateGas' | 'calibrated';
  walletBound: boolean;
  session: SessionView;
  warnings: Warning[];
  approvals: ApprovalView[];
  /** EIP-712 Permit2 typed data to sign instead of the Permit2.approve step (issue 11 §4). */
  permitData?: PermitData;
  simulation: SimulationView;
  poolKey: PoolKey;
  deadline: number;
}

export interface SwapResponse extends BuildResponseBase {
  tradeType: 'EXACT_INPUT' | 'EXACT_OUTPUT';
  tokenIn: string;
  tokenOut: string;
  zeroForOne: boolean;
  /** EXACT_INPUT: the exact input, the V4Quoter quote (null when the caller set the limit and the quote failed), the minimum out. */
  amountIn?: string;
  quotedAmountOut?: string | null;
  minAmountOut?: string;
  /** EXACT_OUTPUT: the exact output, the quote of the input, the maximum in. */
  amountOut?: string;
  quotedAmountIn?: string | null;
  maxAmountIn?: string;
  slippageBps: number | null;
  /** The route the swap takes (design §9): one hop per pool. */
  route: { hops: RouteHopView[] };
}

export interface LiquidityResponse extends BuildResponseBase {
  tickLower: number;
  tickUpper: number;
  liquidity: string;
  amount0Max: string;
  amount1Max: string;
  /** What the mint takes at the build-time price (rounded up like v4-core); the rest stays in the wallet. */
  expectedAmount0: string;
  expectedAmount1: string;
  sqrtPriceX96: string;
  currentTick: number;
  owner: string;
  /** PositionManager.nextTokenId at build time: a prediction (another mint may land first); the Transfer log of the receipt is authoritative. */
  expectedTokenId: string;
}

export type NextAction =
  | {
      action: 'approve';
      use: 'swap' | 'liquidity';
      token: string;
      symbol: string;
      spender: string;
      spenderName: string;
      transaction: UnsignedTx;
      description: string;
    }
  | { action: 'activateSession'; description: string; endpoints: string[] }
  | { action: 'bindWallet'; description: string; endpoint: string };

export interface PreflightResponse {
  address: string;
  chainId: number;
  walletBound: boolean;
  session: SessionView;
  balances: { ETH: string; WETH: string; tUSDC: string };
  allowances: { swap: { WETH: string; tUSDC: string }; liquidity: { WETH: string; tUSDC: string } };
  nextActions: NextAction[];
  /** The wallet against the account's compliance policy; absent while the default policy holds. */
  policy?: { allowed: boolean; decidingRule: string; source: string | null; message: string };
}
