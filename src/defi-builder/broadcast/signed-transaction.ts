/**
 * The relay's first phase: a signed transaction (RLP hex, as wallets produce it) decoded with
 * ethers v6 and checked before anything touches the chain. Pure: no provider, no Nest.
 *
 * Anything that does not parse, is unsigned, names another chain (or none: a pre-EIP-155 legacy
 * signature is valid on every chain), is of a type we do not relay, or is not in its canonical
 * encoding is 400 INVALID_PARAMS on `signedTransaction`. Canonical matters: the node hashes the
 * bytes it is sent, so the hash we answer must be keccak256 of exactly those bytes.
 */
import { getAddress, keccak256, Transaction } from 'ethers';
import { ApiError } from '../../common/errors/api-error';

/** Legacy (0), EIP-2930 (1) and EIP-1559 (2): what wallets sign for these contracts. */
const RELAYED_TYPES = new Set([0, 1, 2]);

export interface SignedTx {
  /** The bytes as sent (lowercase hex). */
  raw: string;
  /** keccak256 of the bytes: the hash the node will report. */
  hash: string;
  type: number;
  chainId: number;
  /** The recovered sender, checksummed. */
  from: string;
  /** The target, checksummed; null for a contract creation. */
  to: string | null;
  nonce: number;
  data: string;
  value: bigint;
  gasLimit: bigint;
  /** The most it pays per gas: maxFeePerGas (type 2) or gasPrice. */
  maxFeePerGas: bigint;
}

export function invalidSignedTransaction(reason: string): ApiError {
  return new ApiError('INVALID_PARAMS', `signedTransaction ${reason}`, {
    hint: 'Send the signed transaction as 0x-prefixed RLP hex, as a wallet returns it (ethers: wallet.signTransaction(tx); viem: walletClient.signTransaction), for chain 84532 and type 0, 1 or 2.',
    details: [{ field: 'signedTransaction', constraint: 'signedTransaction', message: reason }],
  });
}

/** What is wrong with `raw` as a signed transaction, chain aside; null when nothing (pure, for the DTO). */
export function signedTransactionProblem(raw: unknown): string | null {
  if (typeof raw !== 'string') return 'must be a string';
  try {
    parseSigned(raw.toLowerCase());
    return null;
  } catch (err) {
    if (err instanceof ApiError) return (err.options.details?.[0] as { message: string }).message;
    throw err;
  }
}

interface Parsed {
  tx: Transaction;
  from: string;
}

/**
 * The last parses by bytes: a request's body is parsed by its DTO validator (and its message,
 * on failure) and again by the relay, and recovering the signer is the costly part (issue 31
 * review 6). A small bounded map, so one request recovers its sender once.
 */
const PARSED = new Map<string, Parsed | { problem: string }>();
const PARSED_MAX = 64;

function parseSigned(bytes: string): Parsed {
  let parsed = PARSED.get(bytes);
  if (parsed === undefined) {
    try {
      parsed = parseUncached(bytes);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      parsed = { problem: (err.options.details?.[0] as { message: string }).message };
    }
    if (PARSED.size >= PARSED_MAX) PARSED.delete(PARSED.keys().next().value!);
    PARSED.set(bytes, parsed);
  }
  if ('problem' in parsed) throw invalidSignedTransaction(parsed.problem);
  return parsed;
}

function parseUncached(bytes: string): Parsed {
  let tx: Transaction;
  try {
    tx = Transaction.from(bytes);
  } catch {
    throw invalidSignedTransaction('is not a transaction ethers can decode (RLP, type 0/1/2)');
  }
  if (!RELAYED_TYPES.has(tx.type ?? -1))
    throw invalidSignedTransaction(`has type ${tx.type}; the relay takes types 0, 1 and 2`);
  let from: string | null;
  let serialized: string;
  try {
    from = tx.isSigned() ? tx.from : null;
    serialized = tx.isSigned() ? tx.serialized : '';
  } catch {
    throw invalidSignedTransaction('carries a signature no sender can be recovered from');
  }
  if (!from) throw invalidSignedTransaction('is not signed');
  if (serialized !== bytes)
    throw invalidSignedTransaction('is not in canonical RLP encoding (re-serialize it)');
  return { tx, from };
}

/** Decodes and checks `raw` for `chainId`; throws ApiError INVALID_PARAMS. */
export function decodeSignedTransaction(raw: string, chainId: number): SignedTx {
  const bytes = raw.toLowerCase();
  const { tx, from } = parseSigned(bytes);
  if (tx.chainId !== BigInt(chainId))
    throw invalidSignedTransaction(
      tx.chainId === 0n
        ? `has no chain id (a pre-EIP-155 signature); sign it for chain ${chainId}`
        : `is signed for chain ${tx.chainId}, not ${chainId}`,
    );
  return {
    raw: bytes,
    hash: keccak256(bytes),
    type: tx.type!,
    chainId,
    from: getAddress(from),
    to: tx.to === null ? null : getAddress(tx.to),
    nonce: tx.nonce,
    data: tx.data,
    value: tx.value,
    gasLimit: tx.gasLimit,
    maxFeePerGas: tx.maxFeePerGas ?? tx.gasPrice ?? 0n,
  };
}
