/**
 * The library encoders the hand-written ones replace, kept as the reference: the specs assert
 * byte equality against them (swap-calldata.spec.ts, liquidity-calldata.spec.ts,
 * approvals.spec.ts) and `npm run bench:encoders` times both in the same run. Not used by the
 * service.
 *
 * Swap: @uniswap/universal-router-sdk's RoutePlanner and @uniswap/v4-sdk's V4Planner (ethers v5
 * AbiCoder; a multi-hop path from the sdk's Route and encodeRouteToPath, in its UR 2.1.1
 * layout), then the UniversalRouter execute through ethers v6. Mint: V4Planner and
 * PositionManager.modifyLiquidities; the permit batch: V4PositionManager.encodePermitBatch inside
 * PositionManager.multicall. Approvals: ethers v6 Interface.encodeFunctionData and getAddress.
 */
import { CommandType, ROUTER_AS_RECIPIENT, RoutePlanner } from '@uniswap/universal-router-sdk';
import { Token } from '@uniswap/sdk-core';
import {
  Actions,
  encodeRouteToPath,
  Pool,
  Route,
  URVersion,
  V4Planner,
  V4PositionManager,
} from '@uniswap/v4-sdk';
import { getAddress } from 'ethers';
import { ERC20 } from '../../chain/abi/erc20';
import { PERMIT2 } from '../../chain/abi/permit2';
import { POSITION_MANAGER, UNIVERSAL_ROUTER } from '../../chain/abi/uniswap-v4';
import { ApprovalGas, ApprovalNeed, ApprovalStep, planApprovals } from './approvals';
import type { MintCalldataInput } from './liquidity-calldata';
import type { PermitBatch } from './permit2-typed-data';
import { poolKeyTuple } from './pool-key';
import { MSG_SENDER, OPEN_DELTA, SwapCalldataInput, SwapPath } from './swap-calldata';

/** The v4-sdk bundles ethers v5: decimal strings are the one number form both versions share. */
const dec = (n: bigint) => n.toString();

/**
 * The path keys as the v4-sdk derives them from a Route of Pool entities (encodeRouteToPath); the
 * pools' prices do not enter the path, so each is built at 1:1 without liquidity.
 */
function pathKeysBySdk(path: SwapPath, exactOutput: boolean, hookData?: readonly string[]) {
  const token = (address: string) => new Token(1, getAddress(address), 18);
  const pools = path.pools.map((key) => {
    const [currency0, currency1, fee, tickSpacing, hooks] = poolKeyTuple(key);
    return new Pool(token(currency0), token(currency1), fee, tickSpacing, hooks, 2 ** 96, 0, 0);
  });
  const route = new Route(pools, token(path.currencyIn), token(path.currencyOut));
  // PathKeys in trade order (the SDK reverses twice for an exact output): hookData per pool.
  return encodeRouteToPath(route, exactOutput).map((key, i) =>
    Object.assign({}, key, { hookData: hookData?.[i] ?? '0x' }),
  );
}

export function swapCalldataByPlanner(input: SwapCalldataInput): string {
  const exactOut = input.tradeType === 'EXACT_OUTPUT';
  const maxIn = exactOut ? input.amountInMaximum : input.amountIn;
  const minOut = exactOut ? input.amountOut : input.amountOutMinimum;

  const v4 = new V4Planner();
  let currencyIn: string;
  let currencyOut: string;
  if (input.path !== undefined) {
    currencyIn = getAddress(input.path.currencyIn);
    currencyOut = getAddress(input.path.currencyOut);
    const path = pathKeysBySdk(input.path, exactOut, input.hookData);
    if (exactOut) {
      v4.addAction(
        Actions.SWAP_EXACT_OUT,
        [
          {
            currencyOut,
            path,
            minHopPriceX36: [],
            amountOut: dec(input.amountOut),
            amountInMaximum: dec(input.amountInMaximum),
          },
        ],
        URVersion.V2_1_1,
      );
    } else {
      v4.addAction(
        Actions.SWAP_EXACT_IN,
        [
          {
            currencyIn,
            path,
            minHopPriceX36: [],
            amountIn: dec(input.amountIn),
            amountOutMinimum: dec(input.amountOutMinimum),
          },
        ],
        URVersion.V2_1_1,
      );
    }
  } else {
    const [currency0, currency1, fee, tickSpacing, hooks] = poolKeyTuple(input.poolKey);
    const poolKey = { currency0, currency1, fee, tickSpacing, hooks };
    [currencyIn, currencyOut] = input.zeroForOne ? [currency0, currency1] : [currency1, currency0];
    if (exactOut) {
      v4.addAction(Actions.SWAP_EXACT_OUT_SINGLE, [
        {
          poolKey,
          zeroForOne: input.zeroForOne,
          amountOut: dec(input.amountOut),
          amountInMaximum: dec(input.amountInMaximum),
          hookData: input.hookData?.[0] ?? '0x',
        },
      ]);
    } else {
      v4.addAction(Actions.SWAP_EXACT_IN_SINGLE, [
        {
          poolKey,
          zeroForOne: input.zeroForOne,
          amountIn: dec(input.amountIn),
          amountOutMinimum: dec(input.amountOutMinimum),
          hookData: input.hookData?.[0] ?? '0x',
        },
      ]);
    }
  }
  if (input.ethIn) {
    const settle = exactOut ? OPEN_DELTA : input.amountIn;
    v4.addAction(Actions.SETTLE, [currencyIn, dec(settle), false]);
  } else {
    v4.addAction(Actions.SETTLE_ALL, [currencyIn, dec(maxIn)]);
  }
  if (input.ethOut) v4.addAction(Actions.TAKE, [currencyOut, ROUTER_AS_RECIPIENT, dec(OPEN_DELTA)]);
  else v4.addAction(Actions.TAKE_ALL, [currencyOut, dec(minOut)]);

  const router = new RoutePlanner();
  if (input.permit) {
    router.addCommand(CommandType.PERMIT2_PERMIT, [input.permit.permit, input.permit.signature]);
  }
  if (input.ethIn) router.addCommand(CommandType.WRAP_ETH, [ROUTER_AS_RECIPIENT, dec(maxIn)]);
  router.addCommand(CommandType.V4_SWAP, [v4.finalize()]);
  if (input.ethOut) router.addCommand(CommandType.UNWRAP_WETH, [MSG_SENDER, dec(minOut)]);
  else if (input.ethIn && exactOut) {
    router.addCommand(CommandType.UNWRAP_WETH, [MSG_SENDER, '0']);
  }
  return UNIVERSAL_ROUTER.encodeFunctionData('execute(bytes,bytes[],uint256)', [
    router.commands,
    router.inputs,
    input.deadline,
  ]);
}

export function mintCalldataByPlanner(input: MintCalldataInput): string {
  const [currency0, currency1, fee, tickSpacing, hooks] = poolKeyTuple(input.poolKey);
  const planner = new V4Planner();
  planner.addAction(Actions.MINT_POSITION, [
    { currency0, currency1, fee, tickSpacing, hooks },
    input.tickLower,
    input.tickUpper,
    input.liquidity.toString(),
    input.amount0Max.toString(),
    input.amount1Max.toString(),
    getAddress(input.owner),
    input.hookData ?? '0x',
  ]);
  planner.addAction(Actions.SETTLE_PAIR, [currency0, currency1]);
  return POSITION_MANAGER.encodeFunctionData('modifyLiquidities', [
    planner.finalize(),
    input.deadline,
  ]);
}

export function withPermitBatchByLibrary(
  call: string,
  owner: string,
  permitBatch: PermitBatch,
  signature: string,
): string {
  return POSITION_MANAGER.encodeFunctionData('multicall', [
    [V4PositionManager.encodePermitBatch(owner, permitBatch, signature), call],
  ]);
}

/** The same planner with ethers' Interface encoders and getAddress. */
export function planApprovalsByInterface(
  needs: ApprovalNeed[],
  ctx: { permit2: string; spender: string; now: number; gas: ApprovalGas },
): ApprovalStep[] {
  return planApprovals(needs, ctx, {
    address: getAddress,
    erc20Approve: (spender, amount) => ERC20.encodeFunctionData('approve', [spender, amount]),
    permit2Approve: (token, spender, amount, expiration) =>
      PERMIT2.encodeFunctionData('approve', [token, spender, amount, expiration]),
  });
}
