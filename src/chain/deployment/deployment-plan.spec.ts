import { COMPLIANCE_REGISTRY } from '../abi/compliance-registry';
import { COMPLIANCE_HOOK } from '../abi/compliance-hook';
import { CREATE2_DEPLOYER_ADDRESS } from './deployment-constants';
import { planCost, stepGas } from './deployment-cost';
import { planDeployment } from './deployment-plan';
import type { DeploymentState, DeploymentTarget, FundsState } from './deployment-types';
import { resolveDeploymentTarget, TargetRequest } from './deployment-target';
import { MARKET_POOLS } from '../devnet/constants';

const DEPLOYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ATTESTER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const STRANGER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const INFRA = {
  create2Deployer: CREATE2_DEPLOYER_ADDRESS,
  poolManager: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  positionManager: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
  universalRouter: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
  stateView: '0x0165878A594ca255338adfa4d48449f69242Eb8F',
  v4Quoter: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853',
  permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
  weth: '0x77139Fa81c4434893f9D7e033C3e3903C46B820D',
};
const NOW = 1_700_000_000;

function target(overrides: Partial<TargetRequest> = {}): DeploymentTarget {
  return resolveDeploymentTarget({
    chainId: 84532,
    infra: INFRA,
    deployer: DEPLOYER,
    attester: DEPLOYER,
    previousAttester: null,
    existingRegistry: null,
    screening: { sanctionsOracle: null, exitPolicy: 'freeze' },
    token: { kind: 'test' },
    initialPrice: '3000',
    pool: { fee: 3000, tickSpacing: 60 },
    seed: null,
    ...overrides,
  });
}

const noFunds: FundsState = { balance: 0n, allowance: 0n, permit2Amount: 0n, permit2Expiration: 0 };

function emptyChain(withSeed = false): DeploymentState {
  return {
    timestamp: NOW,
    code: { complianceRegistry: false, complianceHook: false, token: false },
    registry: null,
    hook: null,
    pool: { sqrtPriceX96: 0n, liquidity: 0n },
    seeder: withSeed ? { sessionActive: false, weth: noFunds, token: noFunds } : null,
    markets: { tokenCode: {}, pools: {}, seederFunds: {} },
  };
}

function completeChain(t: DeploymentTarget): DeploymentState {
  return {
    timestamp: NOW,
    code: { complianceRegistry: true, complianceHook: true, token: true },
    registry: {
      owner: DEPLOYER,
      attesterAllowed: true,
      deployerAllowed: t.attester === DEPLOYER,
      previousAttesterAllowed: false,
    },
    hook: {
      owner: DEPLOYER,
      universalRouter: true,
      positionManager: true,
      quoter: true,
      enforcer: true,
      authorizers: Object.fromEntries(t.authorizers.map((a) => [a, true])),
    },
    pool: { sqrtPriceX96: t.sqrtPriceX96, liquidity: 10n ** 15n },
    seeder: null,
    markets: { tokenCode: {}, pools: {}, seederFunds: {} },
  };
}

const names = (t: DeploymentTarget, s: DeploymentState) =>
  planDeployment(t, s).steps.map((x) => x.step);

describe('planDeployment', () => {
  it('plans the whole deployment on a chain without it, in dependency order', () => {
    const t = target();
    const plan = planDeployment(t, emptyChain());
    expect(plan.problems).toEqual([]);
    expect(plan.steps.map((s) => s.step)).toEqual([
      'complianceRegistry',
      'complianceHook',
      'tUSDC',
      'hookRouterUniversalRouter',
      'hookRouterPositionManager',
      'hookQuoter',
      `hookAuthorizer:${t.attester}`,
      'hookEnforcer',
      'poolInitialize',
    ]);
    const [registry, hook] = plan.steps;
    // CREATE2 deployer calldata: salt ++ init code.
    expect(registry.to).toBe(CREATE2_DEPLOYER_ADDRESS);
    expect(hook.data).toBe(
      t.contracts.complianceHook.salt +
        (t.contracts.complianceHook as { initCode: string }).initCode.slice(2),
    );
    expect(plan.steps.every((s) => s.from === 'deployer' && s.value === 0n)).toBe(true);
    expect(plan.sqrtPriceX96).toBe(4339505179874779489431521n);
  });

  it('plans nothing on a complete deployment', () => {
    const t = target();
    expect(planDeployment(t, completeChain(t))).toEqual({
      steps: [],
      problems: [],
      notes: [],
      sqrtPriceX96: t.sqrtPriceX96,
    });
  });

  it('resumes: only what is missing after an interrupted run', () => {
    const t = target();
    const state = completeChain(t);
    state.hook = { ...state.hook!, positionManager: false, quoter: false };
    state.pool = { sqrtPriceX96: 0n, liquidity: 0n };
    expect(names(t, state)).toEqual(['hookRouterPositionManager', 'hookQuoter', 'poolInitialize']);
    const quoter = planDeployment(t, state).steps[1];
    expect(COMPLIANCE_HOOK.decodeFunctionData('setQuoter', quoter.data)).toEqual([
      INFRA.v4Quoter,
      true,
    ]);
  });

  it('keeps the price of a pool already initialized, and says so', () => {
    const t = target({ initialPrice: '2500' });
    const state = completeChain(target());
    const plan = planDeployment(t, state);
    expect(plan.steps).toEqual([]);
    expect(plan.notes).toEqual([expect.stringMatching(/already initialized .* not applied/)]);
  });

  it('refuses contracts at our addresses owned by someone else', () => {
    const t = target();
    const state = completeChain(t);
    state.registry = { ...state.registry!, owner: STRANGER, attesterAllowed: false };
    state.hook = { ...state.hook!, owner: STRANGER, quoter: false };
    const plan = planDeployment(t, state);
    expect(plan.problems).toEqual([
      expect.stringContaining(`is owned by ${STRANGER}, not by the deployer`),
      expect.stringContaining(`is owned by ${STRANGER}, not by the deployer`),
    ]);
  });

  it('seeds with a session opened by a temporary deployer attestation when the attester is another key', () => {
    const t = target({
      attester: ATTESTER,
      seed: { seeder: DEPLOYER, weth: '0.1', sessionSeconds: 3600 },
    });
    expect(t.seed).toMatchObject({ wethAmount: 10n ** 17n, tokenAmount: 300n * 10n ** 6n });
    const plan = planDeployment(t, emptyChain(true));
    expect(plan.problems).toEqual([]);
    expect(plan.steps.map((s) => s.step)).toEqual([
      'complianceRegistry',
      'complianceHook',
      'tUSDC',
      'hookRouterUniversalRouter',
      'hookRouterPositionManager',
      'hookQuoter',
      `hookAuthorizer:${ATTESTER}`,
      'hookEnforcer',
      'poolInitialize',
      'seedAttesterGrant',
      'seedSession',
      'seedWrapWeth',
      'seedApproveWeth',
      'seedPermit2Weth',
      'seedMintTUSDC',
      'seedApproveTUSDC',
      'seedPermit2TUSDC',
      'seedPosition',
      'deployerAttesterRevoke',
    ]);
    const session = plan.steps.find((s) => s.step === 'seedSession')!;
    expect(COMPLIANCE_REGISTRY.decodeFunctionData('activate', session.data)).toEqual([
      DEPLOYER,
      BigInt(NOW + 3600),
    ]);
    const wrap = plan.steps.find((s) => s.step === 'seedWrapWeth')!;
    expect(wrap.value).toBe(10n ** 17n);
  });

  it('does not seed a pool that has liquidity', () => {
    const t = target({ seed: { seeder: DEPLOYER, weth: '0.1', sessionSeconds: 3600 } });
    const state = {
      ...completeChain(t),
      seeder: { sessionActive: false, weth: noFunds, token: noFunds },
    };
    const plan = planDeployment(t, state);
    expect(plan.steps).toEqual([]);
    expect(plan.notes).toEqual(['the pool already has liquidity: it is not seeded again']);
  });

  it('refuses to seed an existing token the seeder does not hold', () => {
    const token = '0xFFfFfFffFFfffFFfFFfFFFFFffFFFffffFfFFFfF';
    const t = target({
      token: { kind: 'existing', address: token, name: 'USD Coin', decimals: 6 },
      seed: { seeder: DEPLOYER, weth: '0.1', sessionSeconds: 3600 },
    });
    const state = emptyChain(true);
    state.code.token = true;
    const plan = planDeployment(t, state);
    expect(plan.steps.map((s) => s.step)).not.toContain('tUSDC');
    expect(plan.problems).toEqual([expect.stringContaining(`holds 0 units of the token ${token}`)]);
    state.code.token = false;
    expect(planDeployment(t, state).problems).toContainEqual(
      `the token ${token} has no code on this chain`,
    );
  });

  it('rotates the attester: the new one is added, the recorded one revoked', () => {
    const t = target({
      attester: ATTESTER,
      previousAttester: STRANGER,
      existingRegistry: target().contracts.complianceRegistry.address,
    });
    const state = completeChain(target());
    state.registry = {
      owner: DEPLOYER,
      attesterAllowed: false,
      deployerAllowed: false,
      previousAttesterAllowed: true,
    };
    const plan = planDeployment(t, state);
    // Hook v3: the new attester (the default authorizer) is accepted by the hook too.
    expect(plan.steps.map((s) => s.step)).toEqual([
      'registryAttester',
      `hookAuthorizer:${ATTESTER}`,
      'registryAttesterRevoke',
    ]);
    expect(COMPLIANCE_REGISTRY.decodeFunctionData('setAttester', plan.steps[2].data)).toEqual([
      STRANGER,
      false,
    ]);
  });

  it('refuses a registry the file names that has no code (it cannot be deployed there)', () => {
    const t = target({ existingRegistry: STRANGER });
    const plan = planDeployment(t, emptyChain());
    expect(plan.steps.map((s) => s.step)).not.toContain('complianceRegistry');
    expect(plan.problems).toEqual([
      expect.stringContaining(`names the ComplianceRegistry ${STRANGER}`),
    ]);
  });
});

describe('planCost', () => {
  it('budgets each step at its gas allowance and the fee, plus the value it sends, per signer', () => {
    const t = target({ seed: { seeder: DEPLOYER, weth: '0.1', sessionSeconds: 3600 } });
    const steps = planDeployment(t, emptyChain(true)).steps;
    const fee = 2n * 10n ** 9n;
    const cost = planCost(steps, fee);
    const gas = steps.reduce((sum, s) => sum + stepGas(s.step), 0n);
    expect(cost.deployer + cost.seeder).toBe(gas * fee + 10n ** 17n);
  });
});

describe('planDeployment: the market of the file (issue 42)', () => {
  const market = {
    name: 'devnet',
    tokens: {
      WETH: { name: 'Wrapped Ether', decimals: 18, address: INFRA.weth },
      tUSDC: { name: 'Test USD Coin', decimals: 6, address: null },
      tWBTC: { name: 'Test Wrapped BTC', decimals: 8, address: null, test: true },
      tEURC: { name: 'Test Euro Coin', decimals: 6, address: null, test: true },
    },
    pool: { fee: 3000, tickSpacing: 60 },
    pools: MARKET_POOLS,
  };
  const seeded = () =>
    target({ market, seed: { seeder: DEPLOYER, weth: '0.1', sessionSeconds: 3600 } });
  const marketState = (t: DeploymentTarget, built: boolean): DeploymentState['markets'] => ({
    tokenCode: Object.fromEntries(Object.keys(t.markets.tokens).map((s) => [s, built])),
    pools: Object.fromEntries(
      t.markets.pools.map((p) => [
        p.id,
        built
          ? { sqrtPriceX96: p.sqrtPriceX96!, liquidity: 10n ** 12n }
          : { sqrtPriceX96: 0n, liquidity: 0n },
      ]),
    ),
    seederFunds: {},
  });

  it('deploys the test tokens, initializes and seeds every pool beyond the spec pool', () => {
    const t = seeded();
    expect(t.markets.pools.map((p) => p.label.split(' ')[1])).toEqual(['3000', '100', '500']);
    const steps = names(t, { ...emptyChain(true), markets: marketState(t, false) });
    const market = steps.filter((s) => s.startsWith('market'));
    expect(market.filter((s) => s.startsWith('marketToken:'))).toEqual([
      'marketToken:tWBTC',
      'marketToken:tEURC',
    ]);
    expect(market.filter((s) => s.startsWith('marketPool:'))).toHaveLength(3);
    expect(market.filter((s) => s.startsWith('marketSeed:'))).toHaveLength(3);
    // The seeder's session is opened once, for the spec pool's seed and the market's.
    expect(steps.filter((s) => s === 'seedSession')).toHaveLength(1);
    // Test tokens are minted to the seeder; WETH is wrapped.
    expect(market).toEqual(
      expect.arrayContaining(['marketMint:tWBTC', 'marketMint:tEURC', 'marketWrap:WETH']),
    );
  });

  it('plans nothing for a market already on the chain', () => {
    const t = seeded();
    const steps = names(t, { ...completeChain(t), markets: marketState(t, true) });
    expect(steps).toEqual([]);
  });

  it('refuses a pool that does not exist and has no initialPrice', () => {
    const t = target({
      market: { ...market, pools: [{ ...MARKET_POOLS[2], initialPrice: undefined }] },
    });
    const plan = planDeployment(t, { ...completeChain(t), markets: marketState(t, false) });
    expect(plan.problems).toEqual([expect.stringMatching(/gives no initialPrice/)]);
  });
});
