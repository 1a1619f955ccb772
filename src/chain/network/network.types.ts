/**
 * One shape for every network the service can target: the public network file
 * (src/config/networks/*.json) and the embedded devnet deployment resolve to the same type.
 */
export interface ChainContracts {
  poolManager: string;
  positionManager: string;
  positionDescriptor?: string;
  universalRouter: string;
  stateView: string;
  v4Quoter: string;
  permit2: string;
  multicall3: string;
  complianceRegistry: string;
  complianceHook: string;
}

/** A token of the network's market (design §9: the network file's `tokens`, symbol -> token). */
export interface TokenInfo {
  symbol: string;
  name: string;
  address: string;
  decimals: number;
}

export interface PoolKeyInfo {
  currency0: string;
  currency1: string;
  fee: number;
  tickSpacing: number;
  hooks: string;
}

/**
 * A pool of the network's market (design §9: the network file's `pools`), keyed by its v4 PoolId.
 * Every listed pool carries the current ComplianceHook; currency0 < currency1 (v4's ordering).
 */
export interface MarketPool extends PoolKeyInfo {
  /** The v4 PoolId: keccak256(abi.encode(key)), lower-case hex. */
  id: string;
}

export interface DeprecatedItem {
  kind: 'token' | 'hook';
  label: string;
  address: string;
  /** Address that replaces it (tUSDC or the current ComplianceHook). */
  replacedBy: string;
  replacedByLabel: string;
  reason: string;
}

/**
 * A pool of a deprecated ComplianceHook version (design §9: the network file's
 * `deprecated.pools`): builds into it are refused with POOL_DEPRECATED, its positions are still
 * listed (marked deprecated) and can always be exited.
 */
export interface DeprecatedPool {
  /** The v4 PoolId: keccak256(abi.encode(key)). */
  id: string;
  key: PoolKeyInfo;
  reason: string;
}

/** Position discovery: PositionManager Transfer logs from `startBlock`, read `pageBlocks` blocks per eth_getLogs. */
export interface PositionLogsConfig {
  startBlock: number;
  pageBlocks: number;
}

/**
 * What a sanctioned wallet's exits (decrease, collect, burn) meet in our hook: "freeze" refuses
 * them (sanctions law usually asks that blocked property stay put), "allow" lets them through.
 * A deploy-time choice: it is a constructor argument of the hook.
 */
export type ExitPolicy = 'freeze' | 'allow';

/** Screening settings of a network: the network file's `compliance` object. */
export interface ComplianceNetworkSettings {
  /** Chainalysis' SanctionsList oracle (or the devnet's stand-in); null: no oracle. */
  sanctionsOracle: string | null;
  exitPolicy: ExitPolicy;
}

/** The Ethereum Attestation Service contracts of a network (OP-Stack predeploys on Base). */
export interface EasContracts {
  eas: string;
  schemaRegistry: string;
  /** Coinbase's attestation-indexer interface: latest uid by (recipient, schema); null = none. */
  indexer: string | null;
  /**
   * The first block the service's own index of the accepted attesters' attestations reads EAS
   * `Attested` events from (issue 52): at or before the first attestation that matters (the
   * block the sources' schemas were registered). Absent: 0.
   */
  fromBlock?: number;
}

/** An accepted attestation source: attestations of `schema` made by `attester`. */
export interface AttestationSource {
  name: string;
  attester: string;
  schema: string;
  /** `country` attestations carry an ISO 3166-1 alpha-2 code (`string verifiedCountry`). */
  kind: 'account' | 'country';
}

/** The network file's `compliance` section: where attestations live and which are accepted. */
export interface NetworkCompliance {
  eas: EasContracts | null;
  attestationSources: AttestationSource[];
}

export interface NetworkDefinition {
  name: string;
  chainId: number;
  contracts: ChainContracts;
  /** The whitelist: symbol -> token. WETH and tUSDC are always present on the shipped networks. */
  tokens: Record<string, TokenInfo>;
  /** The spec's default WETH/tUSDC pool (the same object as its entry in `pools`). */
  pool: MarketPool;
  /** Every pool of the market, the default WETH/tUSDC pool first. */
  pools: MarketPool[];
  positionLogs: PositionLogsConfig;
  deprecated: DeprecatedItem[];
  /** Pools of deprecated hook versions (their positions stay exitable). */
  deprecatedPools: DeprecatedPool[];
  compliance: ComplianceNetworkSettings & NetworkCompliance;
  /**
   * The version of the current ComplianceHook (`contracts.complianceHook`): 3 verifies per-trade
   * authorizations (issue 54). Absent: 2.
   */
  hookVersion?: number;
  /** Hook v3: the authorizer addresses the hook accepts (the network file's `authorizers`). */
  authorizers?: string[];
}

/** What a devnet deployment reports (before it is turned into a NetworkDefinition). */
export interface DevnetDeployment {
  chainId: number;
  contracts: ChainContracts;
  /** symbol -> address (WETH and tUSDC first). */
  tokens: Record<string, string>;
  /** The spec's WETH/tUSDC pool. */
  pool: PoolKeyInfo & { sqrtPriceX96: string; liquidity: string };
  /** The other pools of the devnet's market, as the network file lists them. */
  markets: MarketFilePool[];
  accounts: { deployer: string; attester: string; seeder: string; funded: string[] };
  compliance: ComplianceNetworkSettings & NetworkCompliance;
  /** The hook's version (3: per-trade authorizations) and the authorizers it accepts. */
  hookVersion: number;
  authorizers: string[];
}

/** Whole-token amounts by symbol, as decimal strings ({ "WETH": "1", "tUSDC": "3000" }). */
export type TokenAmounts = { [symbol: string]: string | undefined };

/** A pool as a network file lists it (`pools[]`): the key, and how `deploy` initializes and seeds it. */
export interface MarketFilePool {
  /** The v4 PoolId of the key; null until the addresses are known (deploy fills it in). */
  id: string | null;
  /** An address, or a token symbol of the file's `tokens` (resolved by the loader). */
  currency0: string;
  currency1: string;
  fee: number;
  tickSpacing: number;
  /** The hook; null or absent: the network's current ComplianceHook. */
  hooks?: string | null;
  /**
   * The initial price as amounts of equal value, in whole tokens, e.g. `{ "WETH": "1", "tUSDC":
   * "3000" }`: what `deploy` initializes the pool at when it does not exist yet.
   */
  initialPrice?: TokenAmounts;
  /** Whole tokens `deploy --seed` provides as a full-range position when the pool has no liquidity. */
  seed?: TokenAmounts;
}
