/**
 * The vocabulary of a deployment: its target (what the complete deployment is), the state the
 * chain is in, and the steps that lead from one to the other.
 */
import type { Create2Contract, OurContracts } from './create2-addresses';
import type { PoolKey } from '../encoding/pool-key';

export interface Infrastructure {
  create2Deployer: string;
  poolManager: string;
  positionManager: string;
  universalRouter: string;
  stateView: string;
  v4Quoter: string;
  permit2: string;
  weth: string;
}

export interface TokenChoice {
  kind: 'test' | 'existing';
  address: string;
  name: string;
  decimals: number;
}

export interface SeedTarget {
  seeder: string;
  wethAmount: bigint;
  tokenAmount: bigint;
  sessionSeconds: number;
}

/** Everything the complete deployment consists of, resolved to addresses. */
export interface DeploymentTarget {
  chainId: number;
  infra: Infrastructure;
  deployer: string;
  attester: string;
  /** The attester an earlier deployment recorded, revoked once `attester` replaces it. */
  previousAttester: string | null;
  /**
   * Hook v3 (issue 54): the keys whose trade authorizations the hook accepts (setAuthorizer);
   * the attester is made the hook's enforcer (it sets the per-wallet flag).
   */
  authorizers: string[];
  contracts: OurContracts;
  token: TokenChoice;
  poolKey: PoolKey;
  /** The price the pool is initialized at if it is not yet. */
  sqrtPriceX96: bigint;
  seed: SeedTarget | null;
  /** The market beyond the spec's pool: test tokens to deploy, pools to initialize and seed. */
  markets: MarketTarget;
}

/** A token of the file's market, resolved: its address, and its CREATE2 deployment if it is a test token. */
export interface MarketToken {
  symbol: string;
  name: string;
  decimals: number;
  address: string;
  /** A test token the deployer deploys and owns (mints); null: an existing token (or WETH/tUSDC). */
  contract: Create2Contract | null;
  /** The deployer can mint it for a seed (our test tokens, tUSDC when we deploy it). */
  mintable: boolean;
  /** WETH: the seeder wraps ETH for it. */
  weth: boolean;
}

/** A listed pool other than the spec's: its key, initial price and optional seed. */
export interface MarketPoolTarget {
  id: string;
  key: PoolKey;
  /** e.g. `tUSDC/tEURC 500`. */
  label: string;
  /** Null when the file gives no initialPrice (then the pool must already exist). */
  sqrtPriceX96: bigint | null;
  /** Whole-token maxima of the full-range seed, in units (currency0, currency1); null: no seed. */
  seed: { amount0: bigint; amount1: bigint } | null;
}

export interface MarketTarget {
  /** Every token of the file (symbol -> token). */
  tokens: Record<string, MarketToken>;
  pools: MarketPoolTarget[];
}

export interface FundsState {
  balance: bigint;
  /** ERC-20 allowance of the seeder to Permit2. */
  allowance: bigint;
  /** Permit2 allowance of the seeder to the PositionManager. */
  permit2Amount: bigint;
  permit2Expiration: number;
}

/** What the chain holds now. A contract without code has no reads (null). */
export interface DeploymentState {
  /** The latest block's timestamp: sessions and deadlines count from it. */
  timestamp: number;
  code: { complianceRegistry: boolean; complianceHook: boolean; token: boolean };
  registry: {
    owner: string;
    attesterAllowed: boolean;
    deployerAllowed: boolean;
    /** false when there is no previous attester. */
    previousAttesterAllowed: boolean;
  } | null;
  hook: {
    owner: string;
    universalRouter: boolean;
    positionManager: boolean;
    quoter: boolean;
    /** Hook v3: each target authorizer (checksummed) -> accepted by the hook. */
    authorizers: Record<string, boolean>;
    /** Hook v3: the attester is an enforcer. */
    enforcer: boolean;
  } | null;
  pool: { sqrtPriceX96: bigint; liquidity: bigint };
  /** Only when seeding is requested. */
  seeder: { sessionActive: boolean; weth: FundsState; token: FundsState } | null;
  markets: {
    /** Each token of the market (symbol): has code at its address. */
    tokenCode: Record<string, boolean>;
    /** By pool id. */
    pools: Record<string, { sqrtPriceX96: bigint; liquidity: bigint }>;
    /** The seeder's funds per token a seed needs (only when seeding is requested). */
    seederFunds: Record<string, FundsState>;
  };
}

export type StepName =
  | 'complianceRegistry'
  | 'registryAttester'
  | 'registryAttesterRevoke'
  | 'complianceHook'
  | 'tUSDC'
  | 'hookRouterUniversalRouter'
  | 'hookRouterPositionManager'
  | 'hookQuoter'
  | 'hookEnforcer'
  | `hookAuthorizer:${string}`
  | 'poolInitialize'
  | 'seedAttesterGrant'
  | 'seedSession'
  | 'seedWrapWeth'
  | 'seedMintTUSDC'
  | 'seedApproveWeth'
  | 'seedApproveTUSDC'
  | 'seedPermit2Weth'
  | 'seedPermit2TUSDC'
  | 'seedPosition'
  | 'deployerAttesterRevoke'
  /** The market's steps, one name per token or pool (e.g. `marketToken:tWBTC`, `marketPool:<id>`). */
  | `market${'Token' | 'Pool' | 'Mint' | 'Wrap' | 'Approve' | 'Permit2' | 'Seed'}:${string}`;

export interface PlannedStep {
  step: StepName;
  description: string;
  /** Who signs it: the deployer (owner of our contracts) or the seeding LP. */
  from: 'deployer' | 'seeder';
  to: string;
  data: string;
  value: bigint;
}

export interface DeploymentPlan {
  steps: PlannedStep[];
  /** Why the plan cannot run (each one refuses the deployment before anything is sent). */
  problems: string[];
  /** What was found and is used as is. */
  notes: string[];
  /** The pool's price once the plan ran. */
  sqrtPriceX96: bigint;
}
