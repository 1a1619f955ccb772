/**
 * Seeding the pool: what the seeding LP still lacks (wrapped WETH, minted test tokens, ERC-20
 * approvals to Permit2, Permit2 allowances to the PositionManager), and the full-range position
 * it mints through the PositionManager (v4-periphery MINT_POSITION then SETTLE_PAIR).
 */
import { WETH } from '../abi/weth';
import { TEST_USDC } from '../abi/test-usdc';
import { AbiCoder } from 'ethers';
import { ERC20 } from '../abi/erc20';
import { PERMIT2 } from '../abi/permit2';
import { POSITION_MANAGER } from '../abi/uniswap-v4';
import { poolKeyTuple, type PoolKey } from '../encoding/pool-key';
import type {
  DeploymentState,
  DeploymentTarget,
  PlannedStep,
  SeedTarget,
} from './deployment-types';
import { fullRangeLiquidityForAmounts, fullRangeTicks } from './pool-math';

/** PositionManager actions (v4-periphery src/libraries/Actions.sol): MINT_POSITION, SETTLE_PAIR. */
const MINT_THEN_SETTLE = '0x020d';
export const MAX_UINT160 = (1n << 160n) - 1n;
/** A Permit2 allowance this close to its expiry is renewed before it is used. */
export const PERMIT2_MARGIN_SECONDS = 600;

/** Full-range liquidity of the seed at the pool's price. */
export function seedLiquidity(seed: SeedTarget, sqrtPriceX96: bigint): bigint {
  return fullRangeLiquidityForAmounts(sqrtPriceX96, seed.wethAmount, seed.tokenAmount);
}

export function mintPositionData(
  target: DeploymentTarget,
  seed: SeedTarget,
  sqrtPriceX96: bigint,
  deadline: number,
): string {
  return fullRangeMintData(
    target.poolKey,
    { amount0: seed.wethAmount, amount1: seed.tokenAmount, owner: seed.seeder },
    sqrtPriceX96,
    deadline,
  );
}

/**
 * A full-range position in `poolKey` taking at most amount0/amount1 at the pool's price, minted to
 * `owner` through the PositionManager (MINT_POSITION then SETTLE_PAIR).
 */
export function fullRangeMintData(
  poolKey: PoolKey,
  seed: { amount0: bigint; amount1: bigint; owner: string },
  sqrtPriceX96: bigint,
  deadline: number,
): string {
  const coder = AbiCoder.defaultAbiCoder();
  const { tickLower, tickUpper } = fullRangeTicks(poolKey.tickSpacing);
  const mint = coder.encode(
    [
      'tuple(address,address,uint24,int24,address)',
      'int24',
      'int24',
      'uint256',
      'uint128',
      'uint128',
      'address',
      'bytes',
    ],
    [
      poolKeyTuple(poolKey),
      tickLower,
      tickUpper,
      fullRangeLiquidityForAmounts(sqrtPriceX96, seed.amount0, seed.amount1),
      seed.amount0,
      seed.amount1,
      seed.owner,
      '0x',
    ],
  );
  const settle = coder.encode(['address', 'address'], [poolKey.currency0, poolKey.currency1]);
  const unlockData = coder.encode(['bytes', 'bytes[]'], [MINT_THEN_SETTLE, [mint, settle]]);
  return POSITION_MANAGER.encodeFunctionData('modifyLiquidities', [unlockData, deadline]);
}

/** Wrap, approve Permit2, approve the PositionManager: what the seeder still lacks of one token. */
export function fundingSteps(
  target: DeploymentTarget,
  seed: SeedTarget,
  state: DeploymentState,
  which: 'Weth' | 'TUSDC',
  problems: string[],
): PlannedStep[] {
  const isWeth = which === 'Weth';
  const funds = isWeth ? state.seeder!.weth : state.seeder!.token;
  const need = isWeth ? seed.wethAmount : seed.tokenAmount;
  const token = isWeth ? target.infra.weth : target.token.address;
  const label = isWeth ? 'WETH' : 'tUSDC';
  const steps: PlannedStep[] = [];
  if (funds.balance < need) {
    const missing = need - funds.balance;
    if (isWeth) {
      steps.push({
        step: 'seedWrapWeth',
        description: `wrap ${missing} wei into WETH for the seeder`,
        from: 'seeder',
        to: token,
        data: WETH.encodeFunctionData('deposit'),
        value: missing,
      });
    } else if (target.token.kind === 'test') {
      steps.push({
        step: 'seedMintTUSDC',
        description: `mint ${missing} tUSDC units to the seeder`,
        from: 'deployer',
        to: token,
        data: TEST_USDC.encodeFunctionData('mint', [seed.seeder, missing]),
        value: 0n,
      });
    } else {
      problems.push(
        `the seeder ${seed.seeder} holds ${funds.balance} units of the token ${token}; seeding needs ${need}`,
      );
    }
  }
  if (funds.allowance < need)
    steps.push({
      step: `seedApprove${which}`,
      description: `approve Permit2 for the seeder's ${label}`,
      from: 'seeder',
      to: token,
      data: ERC20.encodeFunctionData('approve', [target.infra.permit2, need]),
      value: 0n,
    });
  if (
    funds.permit2Amount < need ||
    funds.permit2Expiration < state.timestamp + PERMIT2_MARGIN_SECONDS
  )
    steps.push({
      step: `seedPermit2${which}`,
      description: `allow the PositionManager to pull the seeder's ${label} through Permit2`,
      from: 'seeder',
      to: target.infra.permit2,
      data: PERMIT2.encodeFunctionData('approve', [
        token,
        target.infra.positionManager,
        need > MAX_UINT160 ? MAX_UINT160 : need,
        state.timestamp + seed.sessionSeconds,
      ]),
      value: 0n,
    });
  return steps;
}
