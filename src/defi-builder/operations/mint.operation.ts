/** POST /api/v1/defi/liquidity: a position mint through the PositionManager at the current price. */
import { ApiError } from '../../common/errors/api-error';
import type { DefiOperation } from '../pipeline/defi-pipeline.service';
import type { BuildResponseBase, LiquidityResponse } from '../defi-builder.types';
import type { LiquidityRequestDto } from '../dto/liquidity-request.dto';
import {
  checkTickRange,
  encodeMintCalldata,
  liquidityForAmounts,
  mintAmountsFor,
} from '../encoding/liquidity-calldata';
import { nextTokenIdRead, Slot0, slot0Read } from '../encoding/market-reads';
import { withPermitBatch } from '../encoding/permit-batch-calldata';
import { signedPermit } from '../preflight/spend-plan';
import { liquidityPool } from '../positions/position-pools';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { tradeTokenOf } from '../token-registry';

/**
 * A mint reads the pool's price and the PositionManager's next tokenId in the batch; it needs a
 * session, as the hook gates adds.
 */
type MintOperation = DefiOperation<
  LiquidityRequestDto,
  'token0' | 'token1',
  { slot0: ReturnType<typeof slot0Read>; nextTokenId: ReturnType<typeof nextTokenIdRead> },
  Omit<LiquidityResponse, keyof BuildResponseBase>
>;

/** Amounts that give no liquidity at the current price: 400 BUILD_FAILED saying which amount to raise. */
export function assertLiquidity(
  liquidity: bigint,
  price: Slot0,
  tickLower: number,
  tickUpper: number,
): void {
  if (liquidity > 0n) return;
  throw new ApiError(
    'BUILD_FAILED',
    'These amounts give zero liquidity in this range at the current price',
    {
      hint:
        price.tick < tickLower
          ? 'The range is above the current price: it takes token0 only; raise amount0.'
          : price.tick >= tickUpper
            ? 'The range is below the current price: it takes token1 only; raise amount1.'
            : 'Raise amount0 and amount1 (the range needs both tokens at the current price).',
    },
  );
}

/** The liquidity the amounts buy in the range at the current price; 400 BUILD_FAILED saying why not. */
function mintLiquidity(dto: LiquidityRequestDto, network: NetworkDefinition, price: Slot0): bigint {
  const { tickLower, tickUpper } = dto;
  const violation = checkTickRange(tickLower, tickUpper, network.pool.tickSpacing);
  if (violation) {
    throw new ApiError('BUILD_FAILED', violation.message, {
      hint: violation.hint,
      extra: { rule: `TICK_${violation.rule}` },
    });
  }
  if (price.sqrtPriceX96 === 0n) {
    throw new ApiError('BUILD_FAILED', 'The pool is not initialized', {
      hint: 'Check the pool key in GET /api/v1/defi/config.',
    });
  }
  const liquidity = liquidityForAmounts(
    price,
    tickLower,
    tickUpper,
    BigInt(dto.amount0),
    BigInt(dto.amount1),
  );
  assertLiquidity(liquidity, price, tickLower, tickUpper);
  return liquidity;
}

export const mintOperation: MintOperation = {
  name: 'mint',
  // The pool: poolId, else the pair's only pool (POOL_AMBIGUOUS with several, POOL_DEPRECATED).
  pool: (dto, network) => liquidityPool(network, dto),

  preflight: (dto) => ({
    tokens: { token0: dto.token0, token1: dto.token1 },
    session: 'required',
    reads: (_tokens, network) => ({
      slot0: slot0Read(network),
      nextTokenId: nextTokenIdRead(network),
    }),
    spend: ({ token0, token1 }) => ({
      use: 'liquidity',
      needs: [
        { symbol: token0.symbol, amount: BigInt(dto.amount0) },
        { symbol: token1.symbol, amount: BigInt(dto.amount1) },
      ],
      offerPermit: 'batch',
      signed: signedPermit('permitBatch', dto.userAddress, dto.permitBatch, dto.permitSignature),
    }),
  }),

  trade: (dto, { network, tokens, reads: { slot0: price } }) => ({
    request: {
      kind: 'liquidity',
      token0: tradeTokenOf(tokens.token0),
      token1: tradeTokenOf(tokens.token1),
      amount0Max: BigInt(dto.amount0),
      amount1Max: BigInt(dto.amount1),
    },
    // The hook binds the liquidity MINT_POSITION carries.
    authorization: {
      kind: 'liquidity',
      poolId: network.pool.id,
      route: [network.pool.id],
      zeroForOne: false,
      amount: mintLiquidity(dto, network, price),
    },
  }),

  build: (dto, { network, user, reads: { slot0: price, nextTokenId } }, deadline, hookData) => {
    const { tickLower, tickUpper } = dto;
    const amount0 = BigInt(dto.amount0);
    const amount1 = BigInt(dto.amount1);
    const liquidity = mintLiquidity(dto, network, price);
    const expected = mintAmountsFor(liquidity, price, tickLower, tickUpper);
    const mint = encodeMintCalldata({
      poolKey: network.pool,
      tickLower,
      tickUpper,
      liquidity,
      amount0Max: amount0,
      amount1Max: amount1,
      owner: user,
      deadline: BigInt(deadline),
      hookData: hookData?.[network.pool.id.toLowerCase()],
    });
    const permit = dto.permitBatch;
    return {
      to: network.contracts.positionManager,
      data: permit ? withPermitBatch(mint, user, permit, dto.permitSignature!) : mint,
      gas: permit ? 'mintPermit' : 'mint',
      details: {
        tickLower,
        tickUpper,
        liquidity: liquidity.toString(),
        amount0Max: amount0.toString(),
        amount1Max: amount1.toString(),
        expectedAmount0: expected.amount0.toString(),
        expectedAmount1: expected.amount1.toString(),
        sqrtPriceX96: price.sqrtPriceX96.toString(),
        currentTick: price.tick,
        owner: user,
        expectedTokenId: nextTokenId.toString(),
      },
    };
  },
};
