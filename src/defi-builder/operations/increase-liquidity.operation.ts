/** POST /api/v1/defi/liquidity/increase: add to a position the wallet owns. Needs a session (the hook gates adds). */
import type { TokenSymbol } from '../../chain/encoding/wallet-reads';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { poolKeyOf } from '../encoding/pool-key';
import type { DefiOperation } from '../pipeline/defi-pipeline.service';
import { liquidityForAmounts, mintAmountsFor } from '../encoding/liquidity-calldata';
import type { Slot0 } from '../encoding/market-reads';
import { encodeIncreaseCalldata } from '../encoding/position-calldata';
import type { IncreaseLiquidityDto } from '../positions/dto/position-requests.dto';
import { maxAmountsIn, sdkPool, sdkPosition, withSdk } from '../positions/position-math';
import { UINT128_LIMIT } from '../dto/validators';
import {
  PositionOperationReads,
  positionChangeBase,
  positionFromPreflight,
  positionPreflight,
} from '../positions/position-preflight';
import { PositionRecord, positionOf } from '../positions/position-reads';
import { poolPrice, positionPool } from '../positions/position-pools';
import type { IncreaseLiquidityDetails } from '../positions/position-responses';
import { assertLiquidity } from './mint.operation';
import { DEFAULT_SLIPPAGE_BPS } from './swap.operation';

type IncreaseOperation = DefiOperation<
  IncreaseLiquidityDto,
  never,
  PositionOperationReads,
  IncreaseLiquidityDetails
>;

/** The liquidity the amounts buy in the position's range at the current price, and its bounds. */
function planIncrease(
  dto: IncreaseLiquidityDto,
  network: NetworkDefinition,
  price: Slot0,
  position: PositionRecord,
) {
  const { tickLower, tickUpper } = position;
  const liquidity = liquidityForAmounts(
    price,
    tickLower,
    tickUpper,
    BigInt(dto.amount0),
    BigInt(dto.amount1),
  );
  assertLiquidity(liquidity, price, tickLower, tickUpper);
  const slippageBps = dto.slippageBps ?? DEFAULT_SLIPPAGE_BPS;
  return withSdk('increase', () => {
    const addition = sdkPosition(sdkPool(network, price), { tickLower, tickUpper, liquidity });
    const max = maxAmountsIn(addition, slippageBps);
    if (max.amount0 >= UINT128_LIMIT || max.amount1 >= UINT128_LIMIT)
      throw new Error('with the slippage, the maximum amounts exceed uint128');
    const expected = mintAmountsFor(liquidity, price, tickLower, tickUpper);
    return { liquidity, slippageBps, addition, max, expected };
  });
}

const symbolOf = (network: NetworkDefinition, address: string): TokenSymbol =>
  Object.values(network.tokens).find((t) => t.address === address)!.symbol;

export const increaseLiquidityOperation: IncreaseOperation = {
  name: 'increase',
  preflight: (dto) => ({
    session: 'required',
    ...positionPreflight(dto.tokenId, { addition: true }),
    spend: (_tokens, reads, network) => {
      // The position's pool (any pool of the market; verify() has checked it is one) and its price.
      const position = positionOf(BigInt(dto.tokenId), reads);
      const pool = positionPool(network, position)!;
      const { max } = planIncrease(dto, pool.network, poolPrice(pool, reads), position);
      const { currency0, currency1 } = pool.network.pool;
      return {
        use: 'liquidity',
        needs: [
          { symbol: symbolOf(network, currency0), amount: max.amount0 },
          { symbol: symbolOf(network, currency1), amount: max.amount1 },
        ],
      };
    },
  }),

  trade: (dto, pre) => {
    const position = positionFromPreflight(dto.tokenId, pre);
    const { network } = position.pool;
    const plan = planIncrease(dto, network, position.price, position);
    const { currency0, currency1 } = network.pool;
    const tokenOf = (address: string) => {
      const token = Object.values(network.tokens).find((t) => t.address === address)!;
      return { symbol: token.symbol, decimals: token.decimals };
    };
    return {
      request: {
        kind: 'liquidity',
        token0: tokenOf(currency0),
        token1: tokenOf(currency1),
        amount0Max: plan.max.amount0,
        amount1Max: plan.max.amount1,
      },
      // The hook binds the liquidity INCREASE_LIQUIDITY carries.
      authorization: {
        kind: 'liquidity',
        poolId: network.pool.id,
        route: [network.pool.id],
        zeroForOne: false,
        amount: plan.liquidity,
      },
    };
  },

  build: (dto, pre, deadline, hookData) => {
    const position = positionFromPreflight(dto.tokenId, pre);
    const price = position.price;
    const plan = planIncrease(dto, position.pool.network, price, position);
    return {
      to: pre.network.contracts.positionManager,
      data: withSdk('increase', () =>
        encodeIncreaseCalldata(plan.addition, {
          tokenId: position.tokenId,
          deadline,
          slippageBps: plan.slippageBps,
          hookData: hookData?.[position.pool.network.pool.id.toLowerCase()],
        }),
      ),
      gas: 'increase',
      details: Object.assign(positionChangeBase(position, price), {
        poolKey: poolKeyOf(position.pool.network.pool),
        liquidity: plan.liquidity.toString(),
        amount0Max: plan.max.amount0.toString(),
        amount1Max: plan.max.amount1.toString(),
        expectedAmount0: plan.expected.amount0.toString(),
        expectedAmount1: plan.expected.amount1.toString(),
        slippageBps: plan.slippageBps,
      }),
    };
  },
};
