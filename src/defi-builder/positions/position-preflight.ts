/**
 * What every operation on an existing position adds to the preflight phase: the position's reads
 * and the pool price in the one batch, then existence (404 POSITION_NOT_FOUND) and ownership
 * (403 POSITION_NOT_OWNED) checked before the session gate.
 */
import { getAddress } from 'ethers';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';
import type { DecodedReads } from '../chain/defi-chain.port';
import { Slot0, slot0Read } from '../encoding/market-reads';
import type { Preflight } from '../preflight/preflight.service';
import { inPool, PositionRecord, positionOf, positionReads } from './position-reads';

export function positionOperationReads(network: NetworkDefinition, tokenId: bigint) {
  return Object.assign(positionReads(network, tokenId), { slot0: slot0Read(network) });
}

export type PositionOperationReads = ReturnType<typeof positionOperationReads>;

/** The position if it is a live one of the network's pool, else 404 POSITION_NOT_FOUND. */
export function livePosition(
  network: NetworkDefinition,
  position: PositionRecord,
): PositionRecord & { owner: string } {
  if (position.owner === null || !inPool(network, position)) {
    const why =
      position.owner === null
        ? 'was never minted or has been burned'
        : `is a position of another pool, not the ${network.tokens.WETH.symbol}/${network.tokens.tUSDC.symbol} compliance pool`;
    throw new ApiError('POSITION_NOT_FOUND', `Position ${position.tokenId} ${why}`, {
      extra: { tokenId: position.tokenId.toString() },
    });
  }
  return position as PositionRecord & { owner: string };
}

/** The position, which `user` must own (the PositionManager lets only the owner or an approved operator change it). */
export function ownedPosition(
  network: NetworkDefinition,
  tokenId: bigint,
  reads: DecodedReads<PositionOperationReads>,
  user: string,
): PositionRecord & { owner: string } {
  const position = livePosition(network, positionOf(tokenId, reads));
  if (position.owner !== getAddress(user)) {
    throw new ApiError(
      'POSITION_NOT_OWNED',
      `Position ${tokenId} is owned by ${position.owner}, not by ${getAddress(user)}`,
      {
        hint: `Only the owner ${position.owner} may change position ${tokenId}: send userAddress ${position.owner} and sign with that wallet.`,
        extra: { tokenId: tokenId.toString(), owner: position.owner },
      },
    );
  }
  return position;
}

/** The preflight fields every position operation shares (its own session rule and spend come on top). */
export function positionPreflight(tokenId: string) {
  const id = BigInt(tokenId);
  return {
    tokens: {},
    reads: (_tokens: object, network: NetworkDefinition) => positionOperationReads(network, id),
    verify: (
      reads: DecodedReads<PositionOperationReads>,
      user: string,
      network: NetworkDefinition,
    ) => void ownedPosition(network, id, reads, user),
  };
}

/** In the build phase: the verified position of the preflight. */
export function positionFromPreflight(
  tokenId: string,
  pre: Preflight<never, PositionOperationReads>,
): PositionRecord & { owner: string } {
  return ownedPosition(pre.network, BigInt(tokenId), pre.reads, pre.user);
}

/** The response fields every position operation shares. */
export function positionChangeBase(position: PositionRecord & { owner: string }, price: Slot0) {
  return {
    tokenId: position.tokenId.toString(),
    owner: position.owner,
    tickLower: position.tickLower,
    tickUpper: position.tickUpper,
    positionLiquidity: position.liquidity.toString(),
    sqrtPriceX96: price.sqrtPriceX96.toString(),
    currentTick: price.tick,
  };
}
