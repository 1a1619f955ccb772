/**
 * Safe transactions as the Safe contracts define them, pure (no provider, no Nest):
 *
 * - MultiSendCallOnly's batch: each call packed as operation (uint8, always 0: a call), to
 *   (address), value (uint256), data length (uint256), data; the batch is `multiSend(bytes)`,
 *   which the Safe DELEGATECALLs (operation 1), so every inner call is made by the Safe itself.
 * - The EIP-712 SafeTx the owners sign (Safe.sol: SAFE_TX_TYPEHASH; domain = chainId +
 *   verifyingContract since v1.3.0) and its hash, the `safeTxHash` Safe's UI and transaction
 *   service show; ethers' TypedDataEncoder does the EIP-712 work.
 * - The SafeMessage an owner signs for ERC-1271 (CompatibilityFallbackHandler), used to bind a
 *   Safe with a Sign-In-with-Ethereum message.
 * - execTransaction calldata, decoded exactly (the relay refuses anything it would not re-encode).
 *
 * Why not @safe-global/protocol-kit at run time: it brings viem and ox (68 + 18 MB installed, a
 * second Ethereum library beside ethers) and its Safe instances read the chain before they encode
 * (Safe.init: 8 JSON-RPC requests on the devnet, then 2 per transaction; docs/architecture.md);
 * the service already reads the Safe's nonce in the build's one batched eth_call. safe-transactions.spec.ts compares every function here with
 * protocol-kit's, and the Safe e2e with the contract's own getTransactionHash.
 */
import { AbiCoder, getAddress, solidityPacked, TypedDataEncoder, ZeroAddress } from 'ethers';
import { MULTI_SEND_CALL_ONLY, SAFE } from '../abi/safe';

export const SAFE_OPERATION = { CALL: 0, DELEGATE_CALL: 1 } as const;

export interface SafeCall {
  to: string;
  value: bigint;
  data: string;
}

/** The SafeTx struct (Safe.sol execTransaction's parameters but the signatures, and the nonce). */
export interface SafeTx {
  to: string;
  value: bigint;
  data: string;
  operation: 0 | 1;
  safeTxGas: bigint;
  baseGas: bigint;
  gasPrice: bigint;
  gasToken: string;
  refundReceiver: string;
  nonce: bigint;
}

export interface SafeTxFields {
  to: string;
  value: string;
  data: string;
  operation: 0 | 1;
  safeTxGas: string;
  baseGas: string;
  gasPrice: string;
  gasToken: string;
  refundReceiver: string;
  nonce: string;
}

/** EIP-712 typed data as wallets take it (eth_signTypedData_v4): numbers as decimal strings. */
export interface TypedData {
  types: Record<string, Array<{ name: string; type: string }>>;
  primaryType: string;
  domain: { chainId: number; verifyingContract: string };
  message: Record<string, string | number> | SafeTxFields;
}

const EIP712_DOMAIN = [
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
];
/** Safe.sol: SafeTx(address to,uint256 value,bytes data,uint8 operation,uint256 safeTxGas,...) */
export const SAFE_TX_TYPES = {
  SafeTx: [
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
    { name: 'operation', type: 'uint8' },
    { name: 'safeTxGas', type: 'uint256' },
    { name: 'baseGas', type: 'uint256' },
    { name: 'gasPrice', type: 'uint256' },
    { name: 'gasToken', type: 'address' },
    { name: 'refundReceiver', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ],
};
/** CompatibilityFallbackHandler: SafeMessage(bytes message). */
export const SAFE_MESSAGE_TYPES = { SafeMessage: [{ name: 'message', type: 'bytes' }] };

// ---------------------------------------------------------------------------------------------
// MultiSendCallOnly

/** `multiSend(bytes)` calldata batching `calls`, every one a call (operation 0). */
export function encodeMultiSend(calls: readonly SafeCall[]): string {
  const packed = calls.map((call) =>
    solidityPacked(
      ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
      [SAFE_OPERATION.CALL, call.to, call.value, (call.data.length - 2) / 2, call.data],
    ).slice(2),
  );
  return MULTI_SEND_CALL_ONLY.encodeFunctionData('multiSend', [`0x${packed.join('')}`]);
}

/** A batch the relay cannot read as MultiSendCallOnly's: what is wrong with it. */
export class MultiSendFormatError extends Error {}

/**
 * The calls of `multiSend(bytes)` calldata; throws MultiSendFormatError unless it is exactly what
 * encodeMultiSend writes (canonical ABI around the bytes, every call an operation-0 call, no
 * trailing byte).
 */
export function decodeMultiSend(data: string): SafeCall[] {
  const fn = MULTI_SEND_CALL_ONLY.getFunction('multiSend')!;
  if (data.slice(0, 10).toLowerCase() !== fn.selector)
    throw new MultiSendFormatError('it is not multiSend(bytes)');
  let packed: string;
  try {
    [packed] = AbiCoder.defaultAbiCoder().decode(['bytes'], `0x${data.slice(10)}`) as unknown as [
      string,
    ];
  } catch {
    throw new MultiSendFormatError('its multiSend argument does not decode as bytes');
  }
  const calls: SafeCall[] = [];
  let at = 2;
  const hex = packed.toLowerCase();
  while (at < hex.length) {
    // 1 + 20 + 32 + 32 bytes of header, in hex characters
    if (hex.length < at + 170) throw new MultiSendFormatError('a call is cut short');
    const operation = parseInt(hex.slice(at, at + 2), 16);
    if (operation !== SAFE_OPERATION.CALL)
      throw new MultiSendFormatError(`a call has operation ${operation}; only calls (0) batch`);
    const to = getAddress(`0x${hex.slice(at + 2, at + 42)}`);
    const value = BigInt(`0x${hex.slice(at + 42, at + 106)}`);
    const length = BigInt(`0x${hex.slice(at + 106, at + 170)}`);
    const end = at + 170 + Number(length) * 2;
    if (length > BigInt(hex.length) || end > hex.length)
      throw new MultiSendFormatError('a call is cut short');
    calls.push({ to, value, data: `0x${hex.slice(at + 170, end)}` });
    at = end;
  }
  if (encodeMultiSend(calls).toLowerCase() !== data.toLowerCase())
    throw new MultiSendFormatError('its encoding is not canonical');
  return calls;
}

// ---------------------------------------------------------------------------------------------
// SafeTx

/** A SafeTx executing `calls` as one batch through MultiSendCallOnly (one call: itself). */
export function batchSafeTx(multiSendCallOnly: string, calls: readonly SafeCall[], nonce: bigint) {
  return {
    to: getAddress(multiSendCallOnly),
    value: 0n,
    data: encodeMultiSend(calls),
    operation: SAFE_OPERATION.DELEGATE_CALL,
    // 0 and no refund: the relayer pays its own gas, and a failing batch reverts the whole
    // execTransaction (GS013) instead of being mined as a successful ExecutionFailure.
    safeTxGas: 0n,
    baseGas: 0n,
    gasPrice: 0n,
    gasToken: ZeroAddress,
    refundReceiver: ZeroAddress,
    nonce,
  } satisfies SafeTx;
}

/** The SafeTx as JSON: addresses checksummed, numbers as decimal strings (operation a number). */
export function safeTxFields(tx: SafeTx): SafeTxFields {
  return {
    to: getAddress(tx.to),
    value: tx.value.toString(),
    data: tx.data,
    operation: tx.operation,
    safeTxGas: tx.safeTxGas.toString(),
    baseGas: tx.baseGas.toString(),
    gasPrice: tx.gasPrice.toString(),
    gasToken: getAddress(tx.gasToken),
    refundReceiver: getAddress(tx.refundReceiver),
    nonce: tx.nonce.toString(),
  };
}

/** The typed data every owner signs for `tx` on `safe` (eth_signTypedData_v4). */
export function safeTxTypedData(chainId: number, safe: string, tx: SafeTx): TypedData {
  return {
    types: { EIP712Domain: EIP712_DOMAIN, ...SAFE_TX_TYPES },
    primaryType: 'SafeTx',
    domain: { chainId, verifyingContract: getAddress(safe) },
    message: safeTxFields(tx),
  };
}

/** The safeTxHash: the EIP-712 hash of the SafeTx, as Safe.getTransactionHash answers it. */
export function safeTxHash(chainId: number, safe: string, tx: SafeTx): string {
  return TypedDataEncoder.hash(
    { chainId, verifyingContract: getAddress(safe) },
    SAFE_TX_TYPES,
    safeTxFields(tx),
  );
}

/** The typed data an owner signs so that `safe` accepts `hash` under ERC-1271 (SafeMessage). */
export function safeMessageTypedData(chainId: number, safe: string, hash: string): TypedData {
  return {
    types: { EIP712Domain: EIP712_DOMAIN, ...SAFE_MESSAGE_TYPES },
    primaryType: 'SafeMessage',
    domain: { chainId, verifyingContract: getAddress(safe) },
    message: { message: hash },
  };
}

/**
 * Owners' 65-byte ECDSA signatures as a Safe reads them: sorted by signer address, ascending
 * (Safe.checkNSignatures requires strictly increasing owners), concatenated.
 */
export function concatSafeSignatures(
  signatures: ReadonlyArray<{ signer: string; signature: string }>,
): string {
  const sorted = [...signatures].sort((a, b) =>
    BigInt(a.signer) < BigInt(b.signer) ? -1 : BigInt(a.signer) > BigInt(b.signer) ? 1 : 0,
  );
  return `0x${sorted.map((s) => s.signature.slice(2)).join('')}`;
}

// ---------------------------------------------------------------------------------------------
// execTransaction

export interface ExecTransaction extends Omit<SafeTx, 'nonce'> {
  signatures: string;
}

/** The arguments of execTransaction calldata, or null when `data` is not exactly that call. */
export function decodeExecTransaction(data: string): ExecTransaction | null {
  const fn = SAFE.getFunction('execTransaction')!;
  if (data.slice(0, 10).toLowerCase() !== fn.selector) return null;
  try {
    const args = SAFE.decodeFunctionData(fn, data);
    if (SAFE.encodeFunctionData(fn, args).toLowerCase() !== data.toLowerCase()) return null;
    const [to, value, inner, operation, safeTxGas, baseGas, gasPrice, gasToken, refund, sigs] =
      args;
    if (operation !== 0n && operation !== 1n) return null;
    return {
      to: getAddress(to as string),
      value: value as bigint,
      data: inner as string,
      operation: Number(operation) as 0 | 1,
      safeTxGas: safeTxGas as bigint,
      baseGas: baseGas as bigint,
      gasPrice: gasPrice as bigint,
      gasToken: getAddress(gasToken as string),
      refundReceiver: getAddress(refund as string),
      signatures: sigs as string,
    };
  } catch {
    return null;
  }
}

/** The SafeTx's fields but the nonce, in the order execTransaction and getTransactionHash take them. */
export function safeTxArguments(tx: SafeTx) {
  return [
    tx.to,
    tx.value,
    tx.data,
    tx.operation,
    tx.safeTxGas,
    tx.baseGas,
    tx.gasPrice,
    tx.gasToken,
    tx.refundReceiver,
  ] as const;
}

/** execTransaction calldata for a signed SafeTx (what an owner, or anyone, sends to the Safe). */
export function encodeExecTransaction(tx: SafeTx, signatures: string): string {
  return SAFE.encodeFunctionData('execTransaction', [...safeTxArguments(tx), signatures]);
}
