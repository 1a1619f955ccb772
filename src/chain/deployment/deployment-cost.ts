/** What the remaining steps of a plan cost, for the balance check made before anything is sent. */
import type { PlannedStep, StepName } from './deployment-types';

/**
 * Gas budget per step for the balance check: the gas each used on a bare devnet (`npm run cli --
 * deploy` prints it per step) plus ~25 %; the transactions themselves are estimated by the node
 * when sent.
 */
export const STEP_GAS: Record<
  Exclude<StepName, `market${string}` | `hookAuthorizer:${string}`>,
  bigint
> = {
  complianceRegistry: 500_000n,
  registryAttester: 60_000n,
  registryAttesterRevoke: 40_000n,
  complianceHook: 1_600_000n,
  tUSDC: 520_000n,
  hookRouterUniversalRouter: 60_000n,
  hookRouterPositionManager: 60_000n,
  hookQuoter: 60_000n,
  hookEnforcer: 60_000n,
  poolInitialize: 100_000n,
  seedAttesterGrant: 60_000n,
  seedSession: 60_000n,
  seedWrapWeth: 60_000n,
  seedMintTUSDC: 90_000n,
  seedApproveWeth: 60_000n,
  seedApproveTUSDC: 60_000n,
  seedPermit2Weth: 70_000n,
  seedPermit2TUSDC: 70_000n,
  seedPosition: 575_000n,
  deployerAttesterRevoke: 40_000n,
};

/** The market's steps (issue 42), by kind: a test token, a pool's initialize, its seed & co. */
const MARKET_STEP_GAS: Record<string, bigint> = {
  marketToken: 900_000n,
  marketPool: 100_000n,
  marketMint: 90_000n,
  marketWrap: 60_000n,
  marketApprove: 60_000n,
  marketPermit2: 70_000n,
  marketSeed: 575_000n,
};

export function stepGas(step: StepName): bigint {
  const kind = step.split(':')[0];
  if (kind === 'hookAuthorizer') return 60_000n;
  return kind.startsWith('market')
    ? MARKET_STEP_GAS[kind]
    : STEP_GAS[kind as keyof typeof STEP_GAS];
}

/** Wei each signer needs for the remaining steps at `feePerGas`: gas budgets plus values sent. */
export function planCost(
  steps: PlannedStep[],
  feePerGas: bigint,
): { deployer: bigint; seeder: bigint } {
  const cost = { deployer: 0n, seeder: 0n };
  for (const s of steps) cost[s.from] += stepGas(s.step) * feePerGas + s.value;
  return cost;
}
