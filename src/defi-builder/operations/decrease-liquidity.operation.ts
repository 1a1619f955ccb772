/**
 * POST /api/v1/defi/liquidity/decrease: remove part or all of a position (and burn it), tokens
 * to the owner. An exit: it never needs a session, here or in the hook (design §7).
 */
import { ApiError } from '../../common/errors/api-error';
import { poolKeyOf } from '../encoding/pool-key';
import type { DefiOperation } from '../pipeline/defi-pipeline.service';
import { BPS, encodeDecreaseCalldata } from '../encoding/position-calldata';
import type { DecreaseLiquidityDto } from '../positions/dto/position-requests.dto';
import {
  amountsOf,
  minAmountsOut,
  sdkPool,
  sdkPosition,
  withSdk,
} from '../positions/position-math';
import {
  PositionOperationReads,
  positionChangeBase,
  positionFromPreflight,
  positionPreflight,
} from '../positions/position-preflight';
import type { DecreaseLiquidityDetails } from '../positions/position-responses';
import { DEFAULT_SLIPPAGE_BPS } from './swap.operation';

type DecreaseOperation = DefiOperation<
  DecreaseLiquidityDto,
  never,
  PositionOperationReads,
  DecreaseLiquidityDetails
>;

function buildFailed(field: string, message: string, hint: string): ApiError {
  return new ApiError('BUILD_FAILED', message, { hint, extra: { field } });
}

export const decreaseLiquidityOperation: DecreaseOperation = {
  name: 'decrease',
  preflight: (dto) => ({ session: 'none', exit: true, ...positionPreflight(dto.tokenId) }),

  build: (dto, pre, deadline) => {
    const position = positionFromPreflight(dto.tokenId, pre);
    const whole = position.liquidity;
    const burn = dto.burn === true;
    const removed =
      dto.liquidity !== undefined
        ? BigInt(dto.liquidity)
        : (whole * BigInt(dto.liquidityBps!)) / BigInt(BPS);
    if (removed > whole)
      throw buildFailed(
        'liquidity',
        `liquidity ${removed} exceeds the position's liquidity ${whole}`,
        `Send at most ${whole}, or liquidityBps 10000 for all of it.`,
      );
    if (burn && removed !== whole)
      throw buildFailed(
        'burn',
        `burn: true needs the whole liquidity (${whole}); ${removed} leaves ${whole - removed}`,
        'Send liquidityBps 10000 (or liquidity = the whole liquidity) with burn: true, or burn: false.',
      );
    if (removed === 0n && !burn)
      throw buildFailed(
        whole === 0n ? 'tokenId' : dto.liquidity !== undefined ? 'liquidity' : 'liquidityBps',
        whole === 0n
          ? `Position ${position.tokenId} has no liquidity left`
          : 'That share of the position is zero liquidity',
        whole === 0n
          ? 'Burn it with liquidityBps 10000 and burn: true, or collect its fees with POST /api/v1/defi/liquidity/collect.'
          : 'Remove a larger share.',
      );
    const { price, pool: positionPool } = position;
    const slippageBps = dto.slippageBps ?? DEFAULT_SLIPPAGE_BPS;
    const { tickLower, tickUpper } = position;
    const { min, expected, data } = withSdk('decrease', () => {
      const pool = sdkPool(positionPool.network, price);
      const part = sdkPosition(pool, { tickLower, tickUpper, liquidity: removed });
      return {
        min: minAmountsOut(part, slippageBps),
        expected: amountsOf(part),
        data: encodeDecreaseCalldata(sdkPosition(pool, position), {
          tokenId: position.tokenId,
          deadline,
          liquidity: removed,
          slippageBps,
          burn,
        }),
      };
    });
    return {
      to: pre.network.contracts.positionManager,
      data,
      gas: burn ? 'burn' : 'decrease',
      details: Object.assign(positionChangeBase(position, price), {
        poolKey: poolKeyOf(positionPool.network.pool),
        liquidity: removed.toString(),
        remainingLiquidity: (whole - removed).toString(),
        amount0Min: min.amount0.toString(),
        amount1Min: min.amount1.toString(),
        expectedAmount0: expected.amount0.toString(),
        expectedAmount1: expected.amount1.toString(),
        slippageBps,
        burn,
        recipient: position.owner,
      }),
    };
  },
};
