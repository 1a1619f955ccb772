/**
 * A compliance receipt (issue 56, design §10): what the service promised at build time, signed as
 * a JWS (ES256) and kept as issued; and, once the transaction is mined, what it did, signed as a
 * second JWS chained to the first by digest. Amounts are decimal strings in the token's smallest
 * unit; `token` is the token's address, the zero address for ETH.
 */

export type ReceiptOperation = 'swap' | 'mint' | 'increase' | 'decrease' | 'collect';

/** The JWS `typ` of each document, so neither can be passed off as the other. */
export const RECEIPT_TYP = 'compliance-receipt';
export const EXECUTION_TYP = 'compliance-receipt-execution';
/** The payload layout; a change that is not additive gets a new version. */
export const RECEIPT_VERSION = 1;

export const ETH_TOKEN = '0x0000000000000000000000000000000000000000';

export interface BalanceChange {
  token: string;
  /** Signed: negative is what the wallet gave. */
  delta: string;
}

/**
 * One rule's result. Today's rules: `sources` and `countries` (the account's compliance policy,
 * judged when the session the trade stands on was opened: every activation path enforces it),
 * `session` and `sanctions` (judged at the build, on the block of its chain read). Later features
 * append theirs (trade rules, issue 54) to the same list.
 */
export interface RuleResult {
  rule: string;
  result: 'pass' | 'fail' | 'not_applicable' | 'unknown';
  at: 'build' | 'activation';
  detail: string;
}

/** What the wallet's compliance session stood on when the service opened it. */
export interface SessionSource {
  kind: 'attestation' | 'zk' | 'demo' | 'unknown';
  /** The source's name (network file, ZK issuer), absent for the demo and unknown. */
  name?: string;
  /** The EAS attestation uid, for an attestation. */
  uid?: string;
  /** The activation transaction and its block, when the service opened the session. */
  activationTxHash?: string;
  activationBlock?: number;
}

export interface SanctionsScreen {
  /** The network's SanctionsList oracle; null when the network has none. */
  oracle: string | null;
  blockNumber: number;
  listed: boolean;
}

/**
 * The built calls executed from the wallet against the state of `blockNumber` (eth_call with a
 * state override: src/chain/simulation/wallet-simulation.ts), not arithmetic on the quote.
 * `gasUsed` is the transaction's (the last call), before refunds.
 */
export interface ReceiptSimulation {
  method: 'eth_call+stateOverride';
  blockNumber: number;
  status: 'success' | 'reverted' | 'skipped' | 'unavailable';
  gasUsed: string | null;
  balanceChanges: BalanceChange[];
  /** Why it reverted (status reverted): the call (0-based, approvals first) and its decoded reason. */
  revert?: { callIndex: number | null; code: string; reason: string };
  /** Why it did not run (status skipped): it could only revert. */
  skipped?: 'SESSION_NOT_ACTIVE' | 'BALANCE_INSUFFICIENT';
}

/**
 * How far the executed balance changes may stray from the simulated ones before the receipt flags
 * the difference: `exact` tokens not at all (the exact side of a swap), the others by
 * `toleranceBps` of the simulated change (the trade's slippage bound); null: no bound (collect).
 */
export interface ReceiptTolerance {
  toleranceBps: number | null;
  exact: string[];
}

/**
 * What the pipeline knows about a build besides its request and its calls. Features that judge a
 * trade add what they judged: a rule result to `policy.rules` (trade rules), the per-trade
 * `authorization` (hook v3, issue 54), the `approval` that released the build (issue 55).
 */
export interface ReceiptFacts {
  policy: { version: number | null; rules: RuleResult[] };
  sanctions: SanctionsScreen;
  authorization: Record<string, unknown> | null;
  approval: Record<string, unknown> | null;
}

export interface UnsignedCall {
  to: string;
  data: string;
  value: string;
}

/** The document fields a build states (the draft), as the receipt carries them. */
interface BuildStatement {
  chainId: number;
  accountId: string;
  wallet: string;
  walletBound: boolean;
  operation: ReceiptOperation;
  request: Record<string, unknown>;
  route: Record<string, unknown> | null;
  /** What the build answered about the trade: quoted amounts and limits, ticks, liquidity... */
  terms: Record<string, unknown>;
  /** The approvals the build asked for, in order (the transaction follows them). */
  approvals: UnsignedCall[];
  transaction: UnsignedCall & { gas: string };
  /** The transaction's deadline (unix s): after it, it can no longer be mined. */
  deadline: number;
  session: { active: boolean; activeUntil: number | null };
  simulation: ReceiptSimulation;
  tolerance: ReceiptTolerance;
}

/** What a build hands the receipts module (ReceiptsService.issue). */
export interface ReceiptDraft extends BuildStatement {
  facts: ReceiptFacts;
}

/** The signed build-time document (the JWS payload): the draft, the session's sources, when. */
export interface ReceiptPayload extends BuildStatement {
  id: string;
  version: number;
  policy: ReceiptFacts['policy'];
  sources: SessionSource[];
  sanctions: SanctionsScreen;
  authorization: Record<string, unknown> | null;
  approval: Record<string, unknown> | null;
  issuedAt: string;
}

export interface Deviation {
  token: string;
  simulated: string;
  executed: string;
  /** The bound it broke: 0 for an exact token. */
  toleranceBps: number;
}

/** What the mined transaction did, decoded from its receipt's logs. */
export interface ReceiptExecution {
  txHash: string;
  blockNumber: number;
  status: 'success' | 'reverted';
  balanceChanges: BalanceChange[];
  gasUsed: string;
  /** Relayed through POST /api/v1/defi/transactions, or seen on chain. */
  relayed: boolean;
  /** Whether every balance change is within the receipt's tolerance; null when reverted. */
  withinSlippage: boolean | null;
  deviations: Deviation[];
}

/** The signed execution document (the second JWS's payload). */
export interface ExecutionPayload {
  receiptId: string;
  /** base64url SHA-256 of the receipt's JWS as issued: which promise this execution answers. */
  receiptDigest: string;
  execution: ReceiptExecution;
  observedAt: string;
}
