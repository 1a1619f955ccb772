/**
 * The plan: from what the chain holds now (DeploymentState) to the complete deployment
 * (DeploymentTarget), the transactions still missing, in order. Pure: the same state always gives
 * the same plan, so a re-run after a crash or on a complete deployment does exactly what is left
 * (nothing, in the second case).
 */
import { POOL_MANAGER } from '../abi/uniswap-v4';
import { COMPLIANCE_REGISTRY } from '../abi/compliance-registry';
import { COMPLIANCE_HOOK } from '../abi/compliance-hook';
import { COMPLIANCE_HOOK_V3 } from '../abi/compliance-hook-v3';
import { getAddress } from 'ethers';
import { isCreate2Contract } from './create2-addresses';
import { poolKeyTuple } from '../encoding/pool-key';
import type {
  DeploymentPlan,
  DeploymentState,
  DeploymentTarget,
  PlannedStep,
  StepName,
} from './deployment-types';
import { fundingSteps, mintPositionData } from './seed-steps';
import { planMarkets } from './market-deployment';

const same = (a: string, b: string): boolean => getAddress(a) === getAddress(b);

function create2Step(
  step: StepName,
  description: string,
  target: DeploymentTarget,
  problems: string[],
): PlannedStep[] {
  const contract =
    step === 'complianceRegistry'
      ? target.contracts.complianceRegistry
      : step === 'complianceHook'
        ? target.contracts.complianceHook
        : target.contracts.testToken;
  if (!isCreate2Contract(contract)) {
    problems.push(
      `the network file names the ComplianceRegistry ${contract.address}, which has no code on this chain: set contracts.complianceRegistry to null to deploy a new one`,
    );
    return [];
  }
  const planned: PlannedStep = {
    step,
    description: `${description} at ${contract.address} (CREATE2)`,
    from: 'deployer',
    to: target.infra.create2Deployer,
    data: contract.salt + contract.initCode.slice(2),
    value: 0n,
  };
  return [planned];
}

export function planDeployment(target: DeploymentTarget, state: DeploymentState): DeploymentPlan {
  const steps: PlannedStep[] = [];
  const problems: string[] = [];
  const notes: string[] = [];
  const { deployer, attester, contracts } = target;
  const registry = contracts.complianceRegistry.address;
  const hook = contracts.complianceHook.address;
  const deployerOwns = (what: string, owner: string | undefined) => {
    if (owner !== undefined && !same(owner, deployer))
      problems.push(`${what} is owned by ${owner}, not by the deployer ${deployer}`);
  };
  const setAttester = (step: StepName, who: string, allowed: boolean, why: string) => {
    deployerOwns(`the ComplianceRegistry ${registry}`, state.registry?.owner);
    steps.push({
      step,
      description: why,
      from: 'deployer',
      to: registry,
      data: COMPLIANCE_REGISTRY.encodeFunctionData('setAttester', [who, allowed]),
      value: 0n,
    });
  };

  if (!state.code.complianceRegistry) {
    steps.push(
      ...create2Step('complianceRegistry', 'deploy the ComplianceRegistry', target, problems),
    );
  } else if (!state.registry!.attesterAllowed) {
    setAttester('registryAttester', attester, true, `make ${attester} an attester of the registry`);
  }
  if (!state.code.complianceHook)
    steps.push(...create2Step('complianceHook', 'deploy the ComplianceHook', target, problems));
  if (target.token.kind === 'test' && !state.code.token)
    steps.push(...create2Step('tUSDC', 'deploy the test stablecoin tUSDC', target, problems));
  if (target.token.kind === 'existing' && !state.code.token)
    problems.push(`the token ${target.token.address} has no code on this chain`);

  const wiring: Array<[StepName, string, string, 'setRouter' | 'setQuoter', boolean]> = [
    [
      'hookRouterUniversalRouter',
      'UniversalRouter',
      target.infra.universalRouter,
      'setRouter',
      !!state.hook?.universalRouter,
    ],
    [
      'hookRouterPositionManager',
      'PositionManager',
      target.infra.positionManager,
      'setRouter',
      !!state.hook?.positionManager,
    ],
    ['hookQuoter', 'V4Quoter', target.infra.v4Quoter, 'setQuoter', !!state.hook?.quoter],
  ];
  for (const [step, name, address, fn, done] of wiring) {
    if (done) continue;
    deployerOwns(`the ComplianceHook ${hook}`, state.hook?.owner);
    steps.push({
      step,
      description: `allow the ${name} on the hook (${fn})`,
      from: 'deployer',
      to: hook,
      data: COMPLIANCE_HOOK.encodeFunctionData(fn, [address, true]),
      value: 0n,
    });
  }
  // Hook v3 (issue 54): the authorizers it accepts, and the attester as the enforcer that flags
  // the wallets of accounts enforcing their trade policy on chain.
  for (const authorizer of target.authorizers) {
    if (state.hook?.authorizers[authorizer]) continue;
    deployerOwns(`the ComplianceHook ${hook}`, state.hook?.owner);
    steps.push({
      step: `hookAuthorizer:${authorizer}`,
      description: `accept trade authorizations signed by ${authorizer} (setAuthorizer)`,
      from: 'deployer',
      to: hook,
      data: COMPLIANCE_HOOK_V3.encodeFunctionData('setAuthorizer', [authorizer, true]),
      value: 0n,
    });
  }
  if (!state.hook?.enforcer) {
    deployerOwns(`the ComplianceHook ${hook}`, state.hook?.owner);
    steps.push({
      step: 'hookEnforcer',
      description: `let the attester ${attester} flag wallets that need an authorization (setEnforcer)`,
      from: 'deployer',
      to: hook,
      data: COMPLIANCE_HOOK_V3.encodeFunctionData('setEnforcer', [attester, true]),
      value: 0n,
    });
  }

  let sqrtPriceX96 = state.pool.sqrtPriceX96;
  if (sqrtPriceX96 === 0n) {
    sqrtPriceX96 = target.sqrtPriceX96;
    steps.push({
      step: 'poolInitialize',
      description: `initialize the WETH/tUSDC pool at sqrtPriceX96 ${sqrtPriceX96}`,
      from: 'deployer',
      to: target.infra.poolManager,
      data: POOL_MANAGER.encodeFunctionData('initialize', [
        poolKeyTuple(target.poolKey),
        sqrtPriceX96,
      ]),
      value: 0n,
    });
  } else if (sqrtPriceX96 !== target.sqrtPriceX96) {
    notes.push(
      `the pool was already initialized at sqrtPriceX96 ${sqrtPriceX96}: the requested price is not applied`,
    );
  }

  // Only attesters open sessions: a deployer that is not one (another --attester) becomes one for
  // the seeding and stops being one at the end.
  let deployerAttests = state.registry ? state.registry.deployerAllowed : same(attester, deployer);
  const seed = target.seed;
  let sessionPlanned = false;
  const openSeedSession = () => {
    if (!seed || sessionPlanned || state.seeder?.sessionActive) return;
    sessionPlanned = true;
    if (!deployerAttests) {
      setAttester(
        'seedAttesterGrant',
        deployer,
        true,
        'make the deployer an attester to open the seeding session',
      );
      deployerAttests = true;
    }
    steps.push({
      step: 'seedSession',
      description: `open a ${seed.sessionSeconds} s session for the seeder ${seed.seeder} (the hook gates liquidity additions)`,
      from: 'deployer',
      to: registry,
      data: COMPLIANCE_REGISTRY.encodeFunctionData('activate', [
        seed.seeder,
        state.timestamp + seed.sessionSeconds,
      ]),
      value: 0n,
    });
  };
  const specSeedUse: Record<string, bigint> = {};
  if (seed && state.pool.liquidity === 0n) {
    openSeedSession();
    steps.push(...fundingSteps(target, seed, state, 'Weth', problems));
    steps.push(...fundingSteps(target, seed, state, 'TUSDC', problems));
    steps.push({
      step: 'seedPosition',
      description: `mint the full-range seed position (${seed.wethAmount} wei WETH, ${seed.tokenAmount} tUSDC units at most)`,
      from: 'seeder',
      to: target.infra.positionManager,
      data: mintPositionData(target, seed, sqrtPriceX96, state.timestamp + seed.sessionSeconds),
      value: 0n,
    });
    specSeedUse.WETH = seed.wethAmount;
    specSeedUse.tUSDC = seed.tokenAmount;
  } else if (seed) {
    notes.push('the pool already has liquidity: it is not seeded again');
  }
  planMarkets(target, state, { steps, problems, notes, openSeedSession, specSeedUse });
  if (deployerAttests && !same(attester, deployer))
    setAttester('deployerAttesterRevoke', deployer, false, 'the deployer stops being an attester');
  // Rotation: the attester an earlier run recorded stops attesting once the new one does.
  const previous = target.previousAttester;
  if (
    previous &&
    state.registry?.previousAttesterAllowed &&
    !same(previous, attester) &&
    !same(previous, deployer)
  )
    setAttester(
      'registryAttesterRevoke',
      previous,
      false,
      `revoke the previous attester ${previous}`,
    );

  return { steps, problems: [...new Set(problems)], notes, sqrtPriceX96 };
}
