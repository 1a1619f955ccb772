/** Success response shapes of design §6 (big numbers as decimal strings, addresses checksummed). */
import type { UnsignedTx } from './encoding/approvals';
import type { ApprovalView, PermitData } from './preflight/spend-plan';
import type { PoolKey } from './encoding/pool-key';
import type { RouteHopView } from './routing/pair-route';
import type { SafeTransactionView } from './pipeline/safe-transaction';

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

/** The authorization a build carries in its hookData (design §10). */
export interface AuthorizationView {
  /** Its EIP-712 digest: what receipts and the ledger name. */
  id: string;
  /** The authorizer that signed it (GET /api/v1/defi/config `authorizers`). */
  signer: string;
  /** Unix seconds (chain clock): after it the hook refuses it (AuthorizationExpired). */
  deadline: number;
}

export interface BuildResponseBase {
  chainId: number;
  /** The build's compliance receipt (GET /api/v1/compliance/receipts/{id}); absent only without a caller. */
  receiptId?: string;
  transaction: UnsignedTx;
  /** approvals[] in order, then transaction: the whole path without a permit (pipeline/calls.ts). */
  calls: Call[];
  /** userAddress is a Safe: `calls` as one Safe transaction for its owners to sign (design §10). */
  safeTransaction?: SafeTransactionView;
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
  /** Hook v3's per-trade authorization, when the account enforces its trade rules on chain (issue 54). */
  authorization?: AuthorizationView;
}

export interface SwapResponse extends BuildResponseBase {
  tradeType: 'EXACT_INPUT' | 'EXACT_OUTPUT';
  tokenIn: string;
  tokenOut: string;
  zeroForOne: boolean;
  /**
   * The exact side and the V4Quoter's quote of the other (null when the caller set the limit and
   * the quote failed), named as the quote answers them.
   */
  amountIn: string | null;
  amountOut: string | null;
  /** EXACT_INPUT: the minimum out. */
  minAmountOut?: string;
  /** EXACT_OUTPUT: the maximum in. */
  maxAmountIn?: string;
  /** Deprecated aliases of amountOut (EXACT_INPUT) and amountIn (EXACT_OUTPUT), for one release. */
  quotedAmountOut?: string | null;
  quotedAmountIn?: string | null;
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
  /** The session, and whether the sanctions oracle lists the wallet (then never active). */
  session: SessionView & { sanctioned: boolean };
  /** ETH and each token read (every token of the market, or those asked for), by symbol. */
  balances: { ETH: string } & Record<string, string>;
  allowances: Record<'swap' | 'liquidity', Record<string, string>>;
  nextActions: NextAction[];
  /** The wallet against the account's compliance policy; absent while the default policy holds. */
  policy?: { allowed: boolean; decidingRule: string; source: string | null; message: string };
  /** The account's trade rules and each limit's use of the rolling 24 h; absent without rules. */
  trading?: {
    enforcement: string;
    tokens: string[] | null;
    limits: {
      token: string;
      perTrade: string | null;
      perDay: string | null;
      used: string;
      remaining: string | null;
    }[];
  };
}
