/**
 * Decodes revert data into our vocabulary. PoolManager reports a reverting hook as
 * `WrappedError(hook, selector, reason, HookCallFailed())` (v4-core CustomRevert.sol), which is in
 * no deployed ABI, so the wrapper is listed here and unwrapped: a compliance refusal then reads
 * SessionNotActive(trader), not an opaque wrapper. Pure: no provider, no Nest.
 */
import { ErrorFragment, Interface, JsonFragment } from 'ethers';
import { loadOwnArtifact } from '../devnet/artifacts';
import { withCachedSelectors } from './abi-words';

/** Error signatures (`error Name(type name)`) of an ABI; the registry and the hook share some. */
const errorsOf = (abi: unknown[]): string[] =>
  (abi as JsonFragment[])
    .filter((item) => item.type === 'error')
    .map((item) => ErrorFragment.from(item).format('full'));

export const KNOWN_ERRORS = withCachedSelectors(
  new Interface(
    unique([
      // Read from the committed artifacts (not a JSON import: contracts/ sits outside the build's rootDir).
      ...errorsOf(loadOwnArtifact('ComplianceHook').abi as unknown[]),
      ...errorsOf(loadOwnArtifact('ComplianceHookV3').abi as unknown[]),
      ...errorsOf(loadOwnArtifact('ComplianceRegistry').abi as unknown[]),
      'error WrappedError(address target, bytes4 selector, bytes reason, bytes details)',
      'error HookCallFailed()',
      'error Error(string message)',
      'error Panic(uint256 code)',
      // v4-core / v4-periphery / universal-router / permit2 errors a caller can act on.
      'error PoolNotInitialized()',
      'error CurrencyNotSettled()',
      'error NotEnoughLiquidity(bytes32 poolId)',
      'error V4TooLittleReceived(uint256 minAmountOutReceived, uint256 amountReceived)',
      'error V4TooMuchRequested(uint256 maxAmountInRequested, uint256 amountRequested)',
      'error MaximumAmountExceeded(uint128 maximumAmount, uint128 amountRequested)',
      'error DeadlinePassed(uint256 deadline)',
      'error TransactionDeadlinePassed()',
      'error ExecutionFailed(uint256 commandIndex, bytes message)',
      'error AllowanceExpired(uint256 deadline)',
      'error InsufficientAllowance(uint256 amount)',
      'error UnexpectedRevertBytes(bytes revertData)',
      // Permit2 (Uniswap/permit2 src/PermitErrors.sol, src/libraries/SignatureVerification.sol,
      // src/interfaces/IAllowanceTransfer.sol): a signed permit that is stale, used or not the owner's.
      'error SignatureExpired(uint256 signatureDeadline)',
      'error InvalidNonce()',
      'error InvalidSigner()',
      'error InvalidSignature()',
      'error InvalidSignatureLength()',
    ]),
  ),
);

function unique(signatures: string[]): string[] {
  return [...new Set(signatures)];
}

/** Our error codes for reverts a client can act on. */
export const REVERT_CODES: Record<string, string> = {
  SessionNotActive: 'SESSION_NOT_ACTIVE',
  WalletSanctioned: 'WALLET_SANCTIONED',
  RouterNotAllowed: 'ROUTER_NOT_ALLOWED',
  NotAttester: 'NOT_ATTESTER',
  AllowanceExpired: 'ALLOWANCE_INSUFFICIENT',
  InsufficientAllowance: 'ALLOWANCE_INSUFFICIENT',
  V4TooLittleReceived: 'SLIPPAGE_EXCEEDED',
  V4TooMuchRequested: 'SLIPPAGE_EXCEEDED',
  MaximumAmountExceeded: 'SLIPPAGE_EXCEEDED',
  DeadlinePassed: 'DEADLINE_PASSED',
  TransactionDeadlinePassed: 'DEADLINE_PASSED',
  NotEnoughLiquidity: 'INSUFFICIENT_POOL_LIQUIDITY',
  SignatureExpired: 'PERMIT_EXPIRED',
  InvalidNonce: 'PERMIT_NONCE_USED',
  InvalidSigner: 'PERMIT_SIGNATURE_INVALID',
  InvalidSignature: 'PERMIT_SIGNATURE_INVALID',
  InvalidSignatureLength: 'PERMIT_SIGNATURE_INVALID',
};

/**
 * A Safe reverts with Error("GSxxx") (safe-smart-account docs/error_codes.md): the ones a Safe
 * transaction's sender can act on.
 */
export const SAFE_REVERT_CODES: Record<string, string> = {
  GS010: 'OUT_OF_GAS',
  GS013: 'SAFE_EXECUTION_FAILED',
  GS020: 'SAFE_SIGNATURES_INVALID',
  GS021: 'SAFE_SIGNATURES_INVALID',
  GS022: 'SAFE_SIGNATURES_INVALID',
  GS023: 'SAFE_SIGNATURES_INVALID',
  GS024: 'SAFE_SIGNATURES_INVALID',
  GS025: 'SAFE_SIGNATURES_INVALID',
  GS026: 'SAFE_SIGNATURES_INVALID',
};

export interface DecodedRevert {
  /** Innermost error name, e.g. SessionNotActive; 'Unknown' when undecodable. */
  name: string;
  args: Record<string, unknown>;
  /** Our code (REVERT_CODES) or REVERTED when the error has no specific code. */
  code: string;
  /** Hook (or other contract) that raised it, when it came wrapped. */
  raisedBy?: string;
  /** Human-readable signature, e.g. `SessionNotActive(0x7099...)`. */
  summary: string;
}

const MAX_DEPTH = 4;

export function decodeRevert(data: string | null | undefined, depth = 0): DecodedRevert {
  const unknown: DecodedRevert = {
    name: 'Unknown',
    args: {},
    code: 'REVERTED',
    summary: `revert ${data ?? '0x'}`,
  };
  if (!data || data.length < 10) return unknown;
  let parsed;
  try {
    parsed = KNOWN_ERRORS.parseError(data);
  } catch {
    return unknown;
  }
  if (!parsed) return unknown;
  const args: Record<string, unknown> = {};
  parsed.fragment.inputs.forEach((input, i) => (args[input.name || String(i)] = parsed.args[i]));
  // ethers' built-in Error(string) has an unnamed input: name it as the ABI does.
  if (parsed.name === 'Error') args.message = parsed.args[0];

  // Unwrap hook failures (and router command failures) to the innermost reason.
  if (depth < MAX_DEPTH && parsed.name === 'WrappedError') {
    const inner = decodeRevert(parsed.args[2] as string, depth + 1);
    return Object.assign({}, inner, { raisedBy: inner.raisedBy ?? (parsed.args[0] as string) });
  }
  if (
    depth < MAX_DEPTH &&
    (parsed.name === 'ExecutionFailed' || parsed.name === 'UnexpectedRevertBytes')
  ) {
    const inner = decodeRevert(
      parsed.args[parsed.name === 'ExecutionFailed' ? 1 : 0] as string,
      depth + 1,
    );
    if (inner.name !== 'Unknown') return inner;
  }
  const summary = `${parsed.name}(${parsed.args.map((a: unknown) => (typeof a === 'string' ? a : String(a))).join(', ')})`;
  const code =
    REVERT_CODES[parsed.name] ??
    (parsed.name === 'Error' ? SAFE_REVERT_CODES[String(parsed.args[0])] : undefined) ??
    'REVERTED';
  return { name: parsed.name, args, code, summary };
}

/**
 * The revert payload inside an ethers / JSON-RPC error, wherever the node put it (`data`,
 * `error.data`, `info.error.data`, ...); undefined when the failure was not a revert.
 */
export function revertDataOf(err: unknown): string | undefined {
  const queue: unknown[] = [err];
  const seen = new Set<unknown>();
  while (queue.length > 0) {
    const node = queue.shift();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    const record = node as Record<string, unknown>;
    if (
      typeof record.data === 'string' &&
      /^0x[0-9a-fA-F]*$/.test(record.data) &&
      record.data.length >= 10
    )
      return record.data;
    for (const key of ['data', 'error', 'info', 'cause', 'payload'])
      if (key in record) queue.push(record[key]);
  }
  // A revert without data (a bare `require`, WETH's withdraw) is still an answer from the node,
  // not an outage: report it as empty revert data.
  return isDatalessRevert(err) ? '0x' : undefined;
}

function isDatalessRevert(err: unknown): boolean {
  const e = err as { code?: unknown; shortMessage?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === 'CALL_EXCEPTION') return true;
  const text = `${typeof e.shortMessage === 'string' ? e.shortMessage : ''} ${typeof e.message === 'string' ? e.message : ''}`;
  return (
    /execution reverted|transaction reverted|reverted with/i.test(text) &&
    !/timeout|ECONNREFUSED/i.test(text)
  );
}
