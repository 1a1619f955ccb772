/**
 * GET /api/v1/defi/positions (a wallet's positions in our pool) and GET .../positions/:tokenId.
 * Discovery: PositionManager Transfer logs to the wallet (paged eth_getLogs from the network's
 * start block). Confirmation: ONE Multicall3 eth_call (ownerOf, getPoolAndPositionInfo,
 * getPositionLiquidity of every candidate + the pool price); then, for positions holding
 * liquidity, ONE more for their fee growth (StateView needs the ticks the first read returned).
 */
import { Inject, Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import type { Principal } from '../../auth/principal';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { WalletsService } from '../../compliance/wallets/wallets.service';
import { ChainReads, DEFI_CHAIN, DecodedReads, DefiChain } from '../chain/defi-chain.port';
import { Slot0, slot0Read } from '../encoding/market-reads';
import { amountsOf, isInRange, sdkPool, sdkPosition } from './position-math';
import { livePosition } from './position-preflight';
import {
  FeeReads,
  feeGrowthOf,
  feeReads,
  grouped,
  inPool,
  PositionReads,
  PositionRecord,
  positionOf,
  positionReads,
  uncollectedFees,
  ungrouped,
} from './position-reads';
import type { PositionView } from './position-responses';

type LivePosition = PositionRecord & { owner: string };

@Injectable()
export class PositionsService {
  constructor(
    @Inject(DEFI_CHAIN) private readonly chain: DefiChain,
    private readonly wallets: WalletsService,
  ) {}

  async list(owner: string, principal: Principal | undefined) {
    const network = this.chain.network();
    const wallet = getAddress(owner);
    const walletBound = await this.wallets.assertNotBoundElsewhere(wallet, principal?.accountId);
    const candidates = await this.chain.positionTokenIdsReceivedBy(wallet);
    const { price, positions } = await this.readPositions(network, candidates);
    const owned = positions.filter(
      (p): p is LivePosition => p.owner === wallet && inPool(network, p),
    );
    return {
      owner: wallet,
      chainId: network.chainId,
      walletBound,
      positions: await this.views(network, price, owned),
    };
  }

  async one(tokenId: string, principal: Principal | undefined) {
    const network = this.chain.network();
    const id = BigInt(tokenId);
    const reads = await this.chain.read({
      ...positionReads(network, id),
      slot0: slot0Read(network),
    });
    const position = livePosition(network, id, reads);
    await this.wallets.assertNotBoundElsewhere(position.owner, principal?.accountId);
    const [view] = await this.views(network, reads.slot0, [position]);
    return { chainId: network.chainId, ...view };
  }

  /** Batch 1: every candidate's PositionManager reads and the pool price. */
  private async readPositions(network: NetworkDefinition, ids: bigint[]) {
    if (ids.length === 0) return { price: null, positions: [] as PositionRecord[] };
    const batch: ChainReads = { slot0: slot0Read(network) };
    for (const id of ids) Object.assign(batch, grouped(id.toString(), positionReads(network, id)));
    const decoded = await this.chain.read(batch);
    return {
      price: decoded.slot0 as Slot0,
      positions: ids.map((id) => positionOf(id, ungrouped<PositionReads>(id.toString(), decoded))),
    };
  }

  /** Batch 2 (only positions holding liquidity: an empty one has no fees left, v4 pays them on every change). */
  private async views(
    network: NetworkDefinition,
    price: Slot0 | null,
    positions: LivePosition[],
  ): Promise<PositionView[]> {
    if (price === null || positions.length === 0) return [];
    const withLiquidity = positions.filter((p) => p.liquidity > 0n);
    const batch: ChainReads = {};
    for (const p of withLiquidity)
      Object.assign(batch, grouped(p.tokenId.toString(), feeReads(network, p)));
    const fees: DecodedReads<ChainReads> =
      withLiquidity.length > 0 ? await this.chain.read(batch) : {};
    const pool = sdkPool(network, price);
    return positions.map((p) => {
      const owed =
        p.liquidity > 0n
          ? uncollectedFees(
              p.liquidity,
              feeGrowthOf(ungrouped<FeeReads>(p.tokenId.toString(), fees)),
            )
          : { amount0: 0n, amount1: 0n };
      const amounts = amountsOf(sdkPosition(pool, p));
      return {
        tokenId: p.tokenId.toString(),
        owner: p.owner,
        poolKey: network.pool,
        tickLower: p.tickLower,
        tickUpper: p.tickUpper,
        liquidity: p.liquidity.toString(),
        inRange: isInRange(p, price.tick),
        amount0: amounts.amount0.toString(),
        amount1: amounts.amount1.toString(),
        uncollectedFees: { amount0: owed.amount0.toString(), amount1: owed.amount1.toString() },
      };
    });
  }
}
