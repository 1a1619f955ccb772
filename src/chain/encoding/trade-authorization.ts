/**
 * Hook v3's per-trade authorization (issue 54, design §10): the EIP-712 `TradeAuthorization` the
 * service's authorizer signs, and the hookData that carries it to the hook. Pure functions: the
 * signer is the caller's (TradeAuthorizer); the domain separator is computed once per hook.
 *
 * What the hook binds (ComplianceHookV3.sol): the trader (the router's msgSender, never hookData),
 * the pool, the kind (swap or liquidity), the swap's direction, the amount the hook sees (a
 * swap's `amountSpecified`: negative exact input, positive exact output; a liquidity addition's
 * `liquidityDelta`), a nonce (Permit2-style unordered: word = nonce >> 8, bit = nonce & 255) and a
 * deadline (unix seconds, inclusive). `nextPoolId` (zero for one pool) lets the route's second hop
 * through on the authorization of the first, for at most `nextAmountMax` of the currency linking
 * the hops: see docs/architecture.md, "Per-trade authorization".
 *
 * hookData (packed words): nonce | deadline | r | yParityAndS (EIP-2098 compact signature): 128
 * bytes for one pool; a route's first pool adds nextPoolId | nextAmountMax (192 bytes). The second
 * hop of a route carries empty hookData.
 */
import {
  AbiCoder,
  concat,
  getAddress,
  keccak256,
  Signature,
  toBeHex,
  toUtf8Bytes,
  zeroPadValue,
} from 'ethers';
import { addressWord, boolWord, intWord, uintWord } from './abi-words';

export const TRADE_AUTHORIZATION_DOMAIN_NAME = 'ComplianceHook';
export const TRADE_AUTHORIZATION_DOMAIN_VERSION = '3';
export const TRADE_AUTHORIZATION_HOOKDATA_BYTES = 128;
export const ROUTE_AUTHORIZATION_HOOKDATA_BYTES = 192;
export const ZERO_POOL_ID = `0x${'00'.repeat(32)}`;

/** What an authorization is for: 0 a swap (beforeSwap), 1 a liquidity addition (beforeAddLiquidity). */
export const TRADE_KIND = { swap: 0, liquidity: 1 } as const;
export type TradeKind = keyof typeof TRADE_KIND;

export const TRADE_AUTHORIZATION_TYPES: Record<string, Array<{ name: string; type: string }>> = {
  TradeAuthorization: [
    { name: 'trader', type: 'address' },
    { name: 'poolId', type: 'bytes32' },
    { name: 'kind', type: 'uint8' },
    { name: 'zeroForOne', type: 'bool' },
    { name: 'amount', type: 'int256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'nextPoolId', type: 'bytes32' },
    { name: 'nextAmountMax', type: 'uint256' },
  ],
};

const TYPE_STRING =
  'TradeAuthorization(address trader,bytes32 poolId,uint8 kind,bool zeroForOne,int256 amount,uint256 nonce,uint256 deadline,bytes32 nextPoolId,uint256 nextAmountMax)';
export const TRADE_AUTHORIZATION_TYPEHASH = keccak256(toUtf8Bytes(TYPE_STRING));
const DOMAIN_TYPEHASH = keccak256(
  toUtf8Bytes('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
);
const coder = AbiCoder.defaultAbiCoder();

export interface TradeAuthorizationDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: string;
}

export interface TradeAuthorizationMessage {
  trader: string;
  poolId: string;
  kind: number;
  zeroForOne: boolean;
  /** Signed: a swap's amountSpecified (negative exact input), a liquidity addition's liquidityDelta. */
  amount: bigint;
  nonce: bigint;
  deadline: bigint;
  nextPoolId: string;
  /** A route: the most the next pool may see of the linking currency (0 for one pool). */
  nextAmountMax: bigint;
}

export function tradeAuthorizationDomain(chainId: number, hook: string): TradeAuthorizationDomain {
  return {
    name: TRADE_AUTHORIZATION_DOMAIN_NAME,
    version: TRADE_AUTHORIZATION_DOMAIN_VERSION,
    chainId,
    verifyingContract: getAddress(hook),
  };
}

/** The domain separator (what the hook caches as an immutable). */
export function domainSeparatorOf(domain: TradeAuthorizationDomain): string {
  return keccak256(
    coder.encode(
      ['bytes32', 'bytes32', 'bytes32', 'uint256', 'address'],
      [
        DOMAIN_TYPEHASH,
        keccak256(toUtf8Bytes(domain.name)),
        keccak256(toUtf8Bytes(domain.version)),
        domain.chainId,
        domain.verifyingContract,
      ],
    ),
  );
}

const TYPEHASH_WORD = TRADE_AUTHORIZATION_TYPEHASH.slice(2);
const bytes32Word = (value: string): string => {
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) throw new TypeError(`not a bytes32: ${value}`);
  return value.slice(2).toLowerCase();
};
const checkedAddressWord = (value: string): string => {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) throw new TypeError(`not an address: ${value}`);
  return addressWord(value);
};

/**
 * The EIP-712 digest the authorizer signs, from a cached domain separator. The struct is encoded
 * word by word (abi-words.ts): ethers' AbiCoder spent ~40 % of an authorization's CPU on it
 * (`npm run bench:trade-auth`); trade-authorization.spec.ts holds it to TypedDataEncoder.hash.
 */
export function tradeAuthorizationDigest(
  domainSeparator: string,
  m: TradeAuthorizationMessage,
): string {
  const structHash = keccak256(
    `0x${TYPEHASH_WORD}${checkedAddressWord(m.trader)}${bytes32Word(m.poolId)}${uintWord(BigInt(m.kind), 8)}${boolWord(m.zeroForOne)}${intWord(m.amount)}${uintWord(m.nonce)}${uintWord(m.deadline)}${bytes32Word(m.nextPoolId)}${uintWord(m.nextAmountMax)}`,
  );
  return keccak256(`0x1901${bytes32Word(domainSeparator)}${structHash.slice(2)}`);
}

/** The message as `signTypedData` takes it (a signer that hashes itself, e.g. a PKCS#11 key). */
export function tradeAuthorizationTypedData(
  domain: TradeAuthorizationDomain,
  m: TradeAuthorizationMessage,
) {
  return {
    domain,
    types: TRADE_AUTHORIZATION_TYPES,
    primaryType: 'TradeAuthorization' as const,
    message: m,
  };
}

/** The hook's hookData for the first (or only) pool of the trade: see the layout above. */
export function encodeAuthorizationHookData(
  m: Pick<TradeAuthorizationMessage, 'nonce' | 'deadline' | 'nextPoolId' | 'nextAmountMax'>,
  signature: string,
): string {
  const sig = Signature.from(signature);
  const parts = [toBeHex(m.nonce, 32), toBeHex(m.deadline, 32), sig.r, sig.yParityAndS];
  if (m.nextPoolId !== ZERO_POOL_ID)
    parts.push(zeroPadValue(m.nextPoolId, 32), toBeHex(m.nextAmountMax, 32));
  return concat(parts).toLowerCase();
}

export interface DecodedAuthorizationHookData {
  nonce: bigint;
  deadline: bigint;
  nextPoolId: string;
  nextAmountMax: bigint;
  signature: string;
}

/** The parts of an authorization hookData, or null when `hookData` is not one (wrong length). */
export function decodeAuthorizationHookData(hookData: string): DecodedAuthorizationHookData | null {
  if (!/^0x[0-9a-fA-F]*$/.test(hookData)) return null;
  const bytes = (hookData.length - 2) / 2;
  if (bytes !== TRADE_AUTHORIZATION_HOOKDATA_BYTES && bytes !== ROUTE_AUTHORIZATION_HOOKDATA_BYTES)
    return null;
  const word = (i: number) => `0x${hookData.slice(2 + i * 64, 2 + (i + 1) * 64)}`;
  let signature: string;
  try {
    signature = Signature.from({ r: word(2), yParityAndS: word(3) }).serialized;
  } catch {
    return null;
  }
  const route = bytes === ROUTE_AUTHORIZATION_HOOKDATA_BYTES;
  return {
    nonce: BigInt(word(0)),
    deadline: BigInt(word(1)),
    nextPoolId: route ? word(4).toLowerCase() : ZERO_POOL_ID,
    nextAmountMax: route ? BigInt(word(5)) : 0n,
    signature,
  };
}
