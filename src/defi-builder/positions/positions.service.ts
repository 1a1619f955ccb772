/**
 * GET /api/v1/defi/positions (a wallet's positions in our pool) and GET .../positions/:tokenId.
 * Discovery: PositionManager Transfer logs to the wallet (paged eth_getLogs from the network's
 * start block). Confirmation: ONE Multicall3 eth_call (ownerOf, getPoolAndPositionInfo,
 * getPositionLiquidity of every candidate, the pool price, and the fee growth of positions whose
 * range is already known). StateView's fee reads need the ticks: a position seen for the first
 * time takes one more eth_call, and its range is remembered (a tokenId's range never changes; the
 * batch re-reads it, so a mismatch is caught and read again). Positions in a pool of a deprecated
 * hook version (the network file's `deprecated.pools`) are listed too, priced in their own pool
 * and marked `deprecated: true`: they can always be exited.
 */
import { poolKeyOf } from '../encoding/pool-key';
import { Inject, Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import type { Principal } from '../../auth/principal';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { WalletsService } from '../../compliance/wallets/wallets.service';
import { ChainReads, DEFI_CHAIN, DecodedReads, DefiChain } from '../chain/defi-chain.port';
import { slot0Read } from '../encoding/market-reads';
import { otherPoolPriceReads, poolPrice, positionPool } from './position-pools';
import { amountsOf, isInRange, sdkPool, sdkPosition } from './position-math';
import { livePosition } from './position-preflight';
import {
  FeeGrowth,
  FeeReads,
  feeGrowthOf,
  feeReads,
  grouped,
  PositionReads,
  PositionRecord,
  positionOf,
  positionReads,
  uncollectedFees,
  ungrouped,
} from './position-reads';
import type { PositionView } from './position-responses';

type LivePosition = PositionRecord & { owner: string };
/** A position's range and its pool (the network seen at that pool). */
type Range = { tickLower: number; tickUpper: number; network: NetworkDefinition };

/** Ranges remembered per tokenId (bounded: the oldest are forgotten first). */
const REMEMBERED_RANGES = 10_000;
const NO_FEES: FeeGrowth = { last0: 0n, last1: 0n, inside0: 0n, inside1: 0n };

@Injectable()
export class PositionsService {
  private readonly ranges = new Map<string, Range>();

  constructor(
    @Inject(DEFI_CHAIN) private readonly chain: DefiChain,
    private readonly wallets: WalletsService,
  ) {}

  async list(owner: string, principal: Principal | undefined) {
    const network = this.chain.network();
    const wallet = getAddress(owner);
    const walletBound = await this.wallets.assertNotBoundElsewhere(wallet, principal?.accountId);
    const candidates = await this.chain.positionTokenIdsReceivedBy(wallet);
    const read = await this.readPositions(network, candidates);
    const views = read.positions
      .filter(({ position: p }) => p.owner === wallet && positionPool(network, p) !== null)
      .map(({ position, growth }) =>
        viewOf(network, read.prices!, position as LivePosition, growth),
      );
    return { owner: wallet, chainId: network.chainId, walletBound, positions: views };
  }

  async one(tokenId: string, principal: Principal | undefined) {
    const network = this.chain.network();
    const { prices, positions } = await this.readPositions(network, [BigInt(tokenId)]);
    const [{ position, growth }] = positions;
    const live = livePosition(network, position);
    await this.wallets.assertNotBoundElsewhere(live.owner, principal?.accountId);
    return { chainId: network.chainId, ...viewOf(network, prices!, live, growth) };
  }

  private async readPositions(network: NetworkDefinition, ids: bigint[]) {
    if (ids.length === 0) return { prices: null, positions: [] };
    const batch: ChainReads = { slot0: slot0Read(network), ...otherPoolPriceReads(network) };
    for (const id of ids) {
      Object.assign(batch, grouped(`${id}`, positionReads(network, id)));
      const range = this.ranges.get(`${id}`);
      // The fee reads need the position's pool: known once its range is (the same first read).
      if (range)
        Object.assign(batch, grouped(`${id}`, feeReads(range.network, { tokenId: id, ...range })));
    }
    const { reads: decoded } = await this.chain.read(batch);
    const positions = ids.map((id) => {
      const position = positionOf(id, ungrouped<PositionReads>(`${id}`, decoded));
      const known = this.ranges.get(`${id}`);
      const pool = positionPool(network, position);
      const growth =
        known?.tickLower === position.tickLower &&
        known.tickUpper === position.tickUpper &&
        known.network === pool?.network
          ? feeGrowthOf(ungrouped<FeeReads>(`${id}`, decoded))
          : undefined;
      if (pool !== null) this.remember(id, position, pool.network);
      return { position, growth };
    });
    // Positions seen for the first time (or whose range changed: a reorg) that hold liquidity.
    const unpriced = positions.filter(
      ({ position: p, growth }) =>
        growth === undefined && p.liquidity > 0n && positionPool(network, p) !== null,
    );
    if (unpriced.length > 0) {
      const feeBatch: ChainReads = {};
      for (const { position: p } of unpriced)
        Object.assign(
          feeBatch,
          grouped(`${p.tokenId}`, feeReads(positionPool(network, p)!.network, p)),
        );
      const fees: DecodedReads<ChainReads> = (await this.chain.read(feeBatch)).reads;
      for (const entry of unpriced)
        entry.growth = feeGrowthOf(ungrouped<FeeReads>(`${entry.position.tokenId}`, fees));
    }
    return { prices: decoded, positions };
  }

  private remember(id: bigint, range: Omit<Range, 'network'>, pool: NetworkDefinition): void {
    const key = `${id}`;
    this.ranges.delete(key);
    this.ranges.set(key, { tickLower: range.tickLower, tickUpper: range.tickUpper, network: pool });
    if (this.ranges.size > REMEMBERED_RANGES) this.ranges.delete(this.ranges.keys().next().value!);
  }
}

function viewOf(
  network: NetworkDefinition,
  prices: DecodedReads<ChainReads>,
  p: LivePosition,
  growth: FeeGrowth | undefined,
): PositionView {
  const pool = positionPool(network, p)!;
  const price = poolPrice(pool, prices);
  // An empty position has no fees left: v4 pays them out on every liquidity change.
  const owed = p.liquidity > 0n ? uncollectedFees(p.liquidity, growth ?? NO_FEES) : null;
  const amounts = amountsOf(sdkPosition(sdkPool(pool.network, price), p));
  return {
    tokenId: p.tokenId.toString(),
    owner: p.owner,
    poolKey: poolKeyOf(pool.network.pool),
    tickLower: p.tickLower,
    tickUpper: p.tickUpper,
    liquidity: p.liquidity.toString(),
    inRange: isInRange(p, price.tick),
    amount0: amounts.amount0.toString(),
    amount1: amounts.amount1.toString(),
    uncollectedFees: {
      amount0: (owed?.amount0 ?? 0n).toString(),
      amount1: (owed?.amount1 ?? 0n).toString(),
    },
    // Only on a position outside the default pool (another pool of the market, or a deprecated
    // pool): the default pool's answers keep their shape.
    ...(pool.deprecated && { deprecated: true as const }),
    ...(pool.network !== network && { poolId: pool.id }),
  };
}
