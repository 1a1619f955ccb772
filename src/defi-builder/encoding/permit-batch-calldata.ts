/**
 * A PositionManager call preceded by a signed Permit2 batch permit, in one transaction:
 * PositionManager.multicall([permitBatch(owner, permitBatch, signature), call]) (v4-periphery
 * Permit2Forwarder + Multicall_v4). The permitBatch call is @uniswap/v4-sdk's
 * V4PositionManager.encodePermitBatch; the SDK does not export its Multicall, so the multicall
 * wrapper uses our PositionManager ABI module.
 */
import { V4PositionManager } from '@uniswap/v4-sdk';
import { POSITION_MANAGER } from '../../chain/abi/uniswap-v4';
import type { PermitBatch } from './permit2-typed-data';

export function withPermitBatch(
  call: string,
  owner: string,
  permitBatch: PermitBatch,
  signature: string,
): string {
  return POSITION_MANAGER.encodeFunctionData('multicall', [
    [V4PositionManager.encodePermitBatch(owner, permitBatch, signature), call],
  ]);
}
