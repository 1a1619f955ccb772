import { JSON_BODY_ERRORS } from '../common/openapi/api-errors.decorator';
import type { ErrorCode } from '../common/errors/error-catalogue';

/** What every build can answer: a malformed body, a foreign wallet, a failed build, the chain. */
const ANY_BUILD: ErrorCode[] = [
  ...JSON_BODY_ERRORS,
  'INVALID_ADDRESS',
  'INSTITUTION_OWNERSHIP_MISMATCH',
  // The network's sanctions oracle lists the wallet (exits only when the network freezes them).
  'WALLET_SANCTIONED',
  'BUILD_FAILED',
  'SIMULATION_REVERTED',
  'CHAIN_UNAVAILABLE',
];

/** What the account's trade rules refuse (issue 54): every build that gives tokens. */
const TRADE_RULES: ErrorCode[] = [
  'TOKEN_NOT_ALLOWED',
  'TRADE_LIMIT_EXCEEDED',
  // Four eyes (issue 55): above a threshold of trading.approvals, and the build sent again.
  'APPROVAL_REQUIRED',
  'APPROVAL_PENDING',
  'APPROVAL_REJECTED',
  'APPROVAL_EXPIRED',
  'APPROVAL_USED',
  'APPROVAL_MISMATCH',
  'APPROVAL_NOT_REQUIRED',
  'NOT_FOUND',
];

/** An entry (swap, mint): a token it may not know, a session, the wallet's balance, the trade rules. */
export const ENTRY_BUILD_ERRORS: ErrorCode[] = [
  ...ANY_BUILD,
  'UNSUPPORTED_TOKEN',
  'SESSION_NOT_ACTIVE',
  'BALANCE_INSUFFICIENT',
  ...TRADE_RULES,
];

/** A swap: an entry whose pair may have no route (design §9). */
export const SWAP_BUILD_ERRORS: ErrorCode[] = [...ENTRY_BUILD_ERRORS, 'NO_ROUTE'];

/** An exit from a position (decrease, collect): the position, never a session. */
export const POSITION_EXIT_ERRORS: ErrorCode[] = [
  ...ANY_BUILD,
  'POSITION_NOT_FOUND',
  'POSITION_NOT_OWNED',
];

/** An increase: a position, and like an entry a session and a balance; never into a deprecated pool. */
export const POSITION_ENTRY_ERRORS: ErrorCode[] = [
  ...POSITION_EXIT_ERRORS,
  'SESSION_NOT_ACTIVE',
  'BALANCE_INSUFFICIENT',
  'POOL_DEPRECATED',
  ...TRADE_RULES,
];

/** A mint: an entry whose optional poolId may name a deprecated pool. */
export const MINT_BUILD_ERRORS: ErrorCode[] = [
  ...ENTRY_BUILD_ERRORS,
  'POOL_DEPRECATED',
  'POOL_AMBIGUOUS',
];

/** Reading positions. */
export const POSITION_READ_ERRORS: ErrorCode[] = [
  'INVALID_PARAMS',
  'INVALID_ADDRESS',
  'INSTITUTION_OWNERSHIP_MISMATCH',
  'POSITION_NOT_FOUND',
  'CHAIN_UNAVAILABLE',
];
