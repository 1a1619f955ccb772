/**
 * The payout rule as first written (issue 30): ethers' getAddress on both sides of every
 * comparison, for every contract and token of the network, on every call. refusedPayoutReason
 * (payout-recipients.ts) replaced it with a lower-cased table built once per network (issue 44:
 * these checksums were ~0.25 ms of a swap build's CPU). Kept as the reference that
 * payout-recipients.spec.ts holds the table to, and that `npm run bench:encoders` times.
 */
import { getAddress } from 'ethers';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ADDRESS_THIS_MARKER, CONTRACT_LABELS, refusedPayoutReason } from './payout-recipients';

export function refusedPayoutReasonByChecksum(
  network: NetworkDefinition,
  address: string,
): string | null {
  const value = BigInt(address);
  // The numeric rules (zero, markers, the reserved range) are the same in both versions.
  if (value < 0x10000n || value === BigInt(ADDRESS_THIS_MARKER))
    return refusedPayoutReason(network, address);
  const checksummed = getAddress(address);
  for (const [name, label] of Object.entries(CONTRACT_LABELS)) {
    const contract = network.contracts[name as keyof NetworkDefinition['contracts']];
    if (contract && getAddress(contract) === checksummed)
      return `${label}, a contract of the protocol: it cannot pay out what it receives`;
  }
  for (const token of Object.values(network.tokens))
    if (getAddress(token.address) === checksummed)
      return `the ${token.symbol} token contract: tokens sent to it are lost`;
  for (const item of network.deprecated)
    if (item.kind === 'token' && getAddress(item.address) === checksummed)
      return `the ${item.label} token contract (deprecated): tokens sent to it are lost`;
  return null;
}
