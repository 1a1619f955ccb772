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

export interface TokenInfo {
  symbol: 'WETH' | 'tUSDC';
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

export interface DeprecatedItem {
  kind: 'token' | 'hook';
  label: string;
  address: string;
  /** Address that replaces it (tUSDC or the current ComplianceHook). */
  replacedBy: string;
  replacedByLabel: string;
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
  tokens: { WETH: TokenInfo; tUSDC: TokenInfo };
  pool: PoolKeyInfo;
  positionLogs: PositionLogsConfig;
  deprecated: DeprecatedItem[];
  compliance: ComplianceNetworkSettings & NetworkCompliance;
}

/** What a devnet deployment reports (before it is turned into a NetworkDefinition). */
export interface DevnetDeployment {
  chainId: number;
  contracts: ChainContracts;
  tokens: { WETH: string; tUSDC: string };
  pool: PoolKeyInfo & { sqrtPriceX96: string; liquidity: string };
  accounts: { deployer: string; attester: string; seeder: string; funded: string[] };
  compliance: ComplianceNetworkSettings & NetworkCompliance;
}
