/** Success shapes of the position endpoints (big numbers as decimal strings, addresses checksummed). */
import type { BuildResponseBase } from '../defi-builder.types';
import type { PoolKey } from '../encoding/pool-key';

export interface PositionView {
  tokenId: string;
  owner: string;
  poolKey: PoolKey;
  tickLower: number;
  tickUpper: number;
  liquidity: string;
  inRange: boolean;
  /** What the liquidity is worth at the current price (rounded down). */
  amount0: string;
  amount1: string;
  uncollectedFees: { amount0: string; amount1: string };
  /** Only in a pool of a deprecated hook version: exit it (decrease, collect, burn); it cannot grow. */
  deprecated?: true;
  /** With `deprecated`: the v4 PoolId of that pool. */
  poolId?: string;
}

interface PositionChangeBase {
  tokenId: string;
  owner: string;
  tickLower: number;
  tickUpper: number;
  /** The position's liquidity before this transaction. */
  positionLiquidity: string;
  sqrtPriceX96: string;
  currentTick: number;
}

export interface IncreaseLiquidityDetails extends PositionChangeBase {
  /** Liquidity added. */
  liquidity: string;
  amount0Max: string;
  amount1Max: string;
  expectedAmount0: string;
  expectedAmount1: string;
  slippageBps: number;
}

export interface DecreaseLiquidityDetails extends PositionChangeBase {
  /** Liquidity removed. */
  liquidity: string;
  remainingLiquidity: string;
  amount0Min: string;
  amount1Min: string;
  expectedAmount0: string;
  expectedAmount1: string;
  slippageBps: number;
  burn: boolean;
  recipient: string;
}

export interface CollectFeesDetails extends PositionChangeBase {
  recipient: string;
}

export type IncreaseLiquidityResponse = BuildResponseBase & IncreaseLiquidityDetails;
export type DecreaseLiquidityResponse = BuildResponseBase & DecreaseLiquidityDetails;
export type CollectFeesResponse = BuildResponseBase & CollectFeesDetails;
