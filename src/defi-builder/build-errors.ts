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

/** An entry (swap, mint): a token it may not know, a session, the wallet's balance. */
export const ENTRY_BUILD_ERRORS: ErrorCode[] = [
  ...ANY_BUILD,
  'UNSUPPORTED_TOKEN',
  'SESSION_NOT_ACTIVE',
  'BALANCE_INSUFFICIENT',
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
