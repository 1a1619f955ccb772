/**
 * THE rule for every address a built transaction pays out to (issue 30): swap output, a minted
 * or changed position, the tokens of a decrease or burn, the fees of a collect. Tokens sent to
 * one of these addresses are lost, or left where anyone can take them:
 *   - the v4 action markers: in periphery `address(1)` means msg.sender and `address(2)` means
 *     the router/PositionManager itself (ActionConstants.sol); TAKE_PAIR to `address(2)` leaves
 *     the fees in the PositionManager, where any wallet can SWEEP them;
 *   - the zero address and the rest of the reserved low range (precompiles, markers): no key
 *     controls them;
 *   - a contract of the protocol (PoolManager, PositionManager, UniversalRouter, Permit2, our
 *     hook and registry, the read helpers): none of them can send tokens it was given;
 *   - a token contract (a supported or deprecated token): ERC-20s keep what is sent to them.
 * Pure: the network's addresses in, an ApiError INVALID_PARAMS (phase validation) out.
 */
import { ROUTER_AS_RECIPIENT } from '@uniswap/universal-router-sdk';
import { getAddress } from 'ethers';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';

/** v4-periphery ActionConstants.MSG_SENDER (the universal-router-sdk's SENDER_AS_RECIPIENT). */
export const MSG_SENDER_MARKER = '0x0000000000000000000000000000000000000001';
/** v4-periphery ActionConstants.ADDRESS_THIS: the contract executing the actions keeps the tokens. */
export const ADDRESS_THIS_MARKER = getAddress(ROUTER_AS_RECIPIENT);
/** 0x0 .. 0xffff: precompiles (0x01-0x0a, 0x100 on Base) and markers; no key controls them. */
const RESERVED_BELOW = 0x10000n;

/** A field of the request that decides where the transaction pays out. */
export interface Payout {
  field: string;
  address: string;
}

export const CONTRACT_LABELS: Record<keyof NetworkDefinition['contracts'], string> = {
  poolManager: 'the v4 PoolManager',
  positionManager: 'the v4 PositionManager',
  positionDescriptor: 'the PositionManager descriptor',
  universalRouter: 'the UniversalRouter',
  stateView: 'the v4 StateView',
  v4Quoter: 'the V4Quoter',
  permit2: 'Permit2',
  multicall3: 'Multicall3',
  complianceRegistry: 'the ComplianceRegistry',
  complianceHook: 'the ComplianceHook',
};

/**
 * The network's refused contract and token addresses, lower-cased, with their reasons: built once
 * per network object (it lives as long as the process). Comparing lower-cased strings gives the
 * answer getAddress-equality gave, without a keccak per address per request: checksumming every
 * contract and token of the network on every build cost ~0.25 ms of a swap build's CPU (issue 44,
 * bench/README.md; payout-recipients-by-checksum.ts keeps that version, which the spec and
 * `npm run bench:encoders` compare with this one).
 */
const refusedByNetwork = new WeakMap<NetworkDefinition, Map<string, string>>();

function refusedAddresses(network: NetworkDefinition): Map<string, string> {
  let refused = refusedByNetwork.get(network);
  if (refused) return refused;
  refused = new Map();
  const add = (address: string | undefined, reason: string) => {
    const key = address?.toLowerCase();
    // The first rule that names an address gives its reason, as the checks' order did.
    if (key && !refused!.has(key)) refused!.set(key, reason);
  };
  for (const [name, label] of Object.entries(CONTRACT_LABELS))
    add(
      network.contracts[name as keyof NetworkDefinition['contracts']],
      `${label}, a contract of the protocol: it cannot pay out what it receives`,
    );
  for (const token of Object.values(network.tokens))
    add(token.address, `the ${token.symbol} token contract: tokens sent to it are lost`);
  for (const item of network.deprecated)
    if (item.kind === 'token')
      add(
        item.address,
        `the ${item.label} token contract (deprecated): tokens sent to it are lost`,
      );
  refusedByNetwork.set(network, refused);
  return refused;
}

/**
 * Why `address` can never receive a payout on `network`, or null when it can. `address` is a
 * 0x-prefixed 40-hex-digit address (the request DTOs validate it, checksum included).
 */
export function refusedPayoutReason(network: NetworkDefinition, address: string): string | null {
  const value = BigInt(address);
  if (value === 0n) return 'the zero address: tokens sent there are burned';
  if (value === BigInt(MSG_SENDER_MARKER))
    return 'the v4 MSG_SENDER action marker (0x…01), not a wallet: send the wallet itself';
  if (value === BigInt(ADDRESS_THIS_MARKER))
    return 'the v4 ADDRESS_THIS action marker (0x…02): the tokens would stay in the PositionManager or router, where anyone can sweep them';
  if (value < RESERVED_BELOW)
    return 'a reserved address (precompile or action marker range, below 0x10000): no wallet controls it';
  return refusedAddresses(network).get(address.toLowerCase()) ?? null;
}

/** Throws 400 INVALID_PARAMS naming every payout field whose address can never receive a payout. */
export function assertPayoutRecipients(network: NetworkDefinition, payouts: Payout[]): void {
  const details = payouts.flatMap(({ field, address }) => {
    const reason = refusedPayoutReason(network, address);
    return reason
      ? [{ field, constraint: 'payoutRecipient', message: `${field} ${address} is ${reason}` }]
      : [];
  });
  if (details.length === 0) return;
  throw new ApiError('INVALID_PARAMS', details.map((d) => d.message).join('; '), {
    hint: 'Pay out to a wallet the user controls (an EOA or a smart wallet), never a token, a protocol contract, the zero address or a v4 action marker; omit recipient to pay out to userAddress.',
    details,
  });
}
