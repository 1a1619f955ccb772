/**
 * What every operation on an existing position adds to the preflight phase: the position's reads
 * and the pool prices (the current pool's and every deprecated pool's) in the one batch, then
 * existence (404 POSITION_NOT_FOUND), ownership (403 POSITION_NOT_OWNED) and, for an addition, a
 * deprecated pool (400 POOL_DEPRECATED) checked before the session gate. Exits work in every
 * pool the network knows, the deprecated ones included.
 */
import { getAddress } from 'ethers';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';
import type { DecodedReads } from '../chain/defi-chain.port';
import { Slot0, slot0Read } from '../encoding/market-reads';
import type { Preflight } from '../preflight/preflight.service';
import type { ChainRead } from '../chain/defi-chain.port';
import {
  otherPoolPriceReads,
  poolDeprecated,
  poolPrice,
  PositionPool,
  positionPool,
} from './position-pools';
import { PositionRecord, positionOf, positionReads } from './position-reads';

export type PositionOperationReads = ReturnType<typeof positionReads> & {
  slot0: ChainRead<Slot0>;
};

export function positionOperationReads(
  network: NetworkDefinition,
  tokenId: bigint,
): PositionOperationReads {
  // The deprecated pools' prices ride untyped beside `slot0` (poolPrice() picks the right one).
  return Object.assign(
    positionReads(network, tokenId),
    { slot0: slot0Read(network) },
    otherPoolPriceReads(network),
  );
}

/**
 * The position if it is a live one of the network's pool or of a deprecated pool, else 404
 * POSITION_NOT_FOUND.
 */
export function livePosition(
  network: NetworkDefinition,
  position: PositionRecord,
): PositionRecord & { owner: string } {
  if (position.owner === null || positionPool(network, position) === null) {
    const why =
      position.owner === null
        ? 'was never minted or has been burned'
        : 'is a position of another pool, none of the compliance pools of GET /api/v1/defi/config';
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

/**
 * The preflight fields every position operation shares (its own session rule and spend come on
 * top). `addition`: the operation adds to the position, which a deprecated pool refuses.
 */
export function positionPreflight(tokenId: string, opts: { addition?: boolean } = {}) {
  const id = BigInt(tokenId);
  return {
    tokens: {},
    reads: (_tokens: object, network: NetworkDefinition) => positionOperationReads(network, id),
    verify: (
      reads: DecodedReads<PositionOperationReads>,
      user: string,
      network: NetworkDefinition,
    ) => {
      const position = ownedPosition(network, id, reads, user);
      const pool = positionPool(network, position)!;
      if (opts.addition && pool.deprecated)
        throw poolDeprecated(network, pool.deprecated, `Position ${tokenId}`);
    },
  };
}

/**
 * In the build phase: the verified position of the preflight, with its pool (the network seen at
 * that pool, for the encoders) and that pool's price.
 */
export function positionFromPreflight(
  tokenId: string,
  pre: Preflight<never, PositionOperationReads>,
): PositionRecord & { owner: string; pool: PositionPool; price: Slot0 } {
  const position = ownedPosition(pre.network, BigInt(tokenId), pre.reads, pre.user);
  const pool = positionPool(pre.network, position)!;
  return Object.assign(position, { pool, price: poolPrice(pool, pre.reads) });
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
