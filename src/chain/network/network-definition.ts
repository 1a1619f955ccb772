/**
 * Builds the resolved NetworkDefinition from a network file (+ env overrides) or from a devnet
 * deployment. Pure functions: the Nest service only calls them.
 */
import { getAddress, isAddress } from 'ethers';
import { poolIdOf } from '../encoding/pool-key';
import { resolveMarket } from './market-definition';
import type {
  ComplianceNetworkSettings,
  MarketFilePool,
  DeprecatedPool,
  AttestationSource,
  DeprecatedItem,
  NetworkCompliance,
  DevnetDeployment,
  NetworkDefinition,
  PositionLogsConfig,
  TokenInfo,
} from './network.types';

/**
 * Shape of a network file: src/config/networks/*.json, or an operator's file (CHAIN_NETWORK_FILE)
 * written by `npm run devnet -- --bare --network-file F` and completed by `npm run cli -- deploy`.
 * Our own contracts and token may be null: not deployed yet (or, for the shipped files, from env).
 */
export interface NetworkFile {
  name: string;
  chainId: number;
  notes?: string[];
  contracts: { [K in keyof NetworkDefinition['contracts']]: string | null } & {
    /** The canonical CREATE2 deployer (Arachnid's proxy) our deployment goes through. */
    create2Deployer?: string | null;
  };
  /**
   * The whitelist (design §9): symbol -> { address, decimals, name }. WETH and tUSDC are always
   * listed; `test: true` marks a test token `deploy` deploys itself (address null until then).
   */
  tokens: Record<string, NetworkFileToken>;
  /** Fee and tick spacing of the spec's WETH/tUSDC pool (the default pool). */
  pool: { fee: number; tickSpacing: number };
  /**
   * The market's pools (design §9). Absent: the spec's WETH/tUSDC pool alone. The WETH/tUSDC pool
   * of `pool` is always part of the market (added first when the list does not name it).
   */
  pools?: MarketFilePool[];
  /** Where position discovery starts reading PositionManager Transfer logs; absent: block 0, 10,000-block pages. */
  positionLogs?: PositionLogsConfig;
  /**
   * Deprecated items (spec §1). Either the original list of token and hook entries, or the
   * sectioned form of design §9, `{ tokens?, hooks, pools }`, which `npm run cli -- deploy`
   * writes once it deploys a new hook version beside an old one. Both are read.
   */
  deprecated: DeprecatedEntry[] | DeprecatedSections;
  /**
   * Sanctions screening (`sanctionsOracle`: SanctionsList `isSanctioned(address)`, null or the
   * zero address: none; the hook's `exitPolicy`, default "freeze") and attestation sources (the
   * EAS contracts and the accepted sources). Absent: none of them.
   */
  compliance?: Partial<
    { sanctionsOracle: string | null; exitPolicy: 'freeze' | 'allow' } & NetworkCompliance
  >;
  /** What `npm run cli -- deploy` did on this network; absent or null before it ran. */
  deployment?: NetworkDeploymentRecord | null;
  /**
   * The version of `contracts.complianceHook` (issue 54): 3 verifies per-trade authorizations.
   * Absent: 2 (the files written before hook v3). `deploy` writes it with the hook.
   */
  hookVersion?: number;
  /** Hook v3: the authorizer addresses the hook accepts (`deploy` sets and records them). */
  authorizers?: string[];
}

/** Written by `deploy`: who deployed, the first block of our deployment, every transaction it sent. */
export interface NetworkDeploymentRecord {
  deployer: string;
  /** The registry's attester (the key the service activates sessions with). */
  attester: string;
  /** Block of the first transaction of our deployment (also positionLogs.startBlock). */
  block: number;
  /** sqrtPriceX96 the pool was initialized at. */
  sqrtPriceX96?: string;
  /** Step name (e.g. complianceRegistry, complianceHook, poolInitialize) -> transaction hash. */
  transactions: Record<string, string>;
}

/** A token as a network file lists it. */
export interface NetworkFileToken extends Omit<TokenInfo, 'address' | 'symbol'> {
  /** Absent: the key it is listed under. */
  symbol?: string;
  address: string | null;
  /** A test token `deploy` deploys (TestToken, CREATE2 salt from the symbol) and mints. */
  test?: boolean;
}

/** `replacedBy` names the current item symbolically, so one entry works on every network. */
export interface DeprecatedEntry {
  kind: 'token' | 'hook';
  label: string;
  address: string;
  replacedBy: 'tUSDC' | 'complianceHook';
  reason: string;
}

/** A pool of a deprecated hook version, as design §9 names pools (`id` = the v4 PoolId). */
export interface DeprecatedPoolEntry {
  id: string;
  currency0: string;
  currency1: string;
  fee: number;
  tickSpacing: number;
  hooks: string;
  reason: string;
}

/** The sectioned `deprecated` of design §9: the kind of an entry is its section. */
export interface DeprecatedSections {
  tokens?: Array<Omit<DeprecatedEntry, 'kind'>>;
  hooks?: Array<Omit<DeprecatedEntry, 'kind'>>;
  pools?: DeprecatedPoolEntry[];
}

/** Either form of a file's `deprecated`, as sections (the list form has no pools). */
export function deprecatedSections(deprecated: NetworkFile['deprecated'] | undefined): {
  tokens: Array<Omit<DeprecatedEntry, 'kind'>>;
  hooks: Array<Omit<DeprecatedEntry, 'kind'>>;
  pools: DeprecatedPoolEntry[];
} {
  if (deprecated === undefined) return { tokens: [], hooks: [], pools: [] };
  if (Array.isArray(deprecated)) {
    const strip = ({ kind: _kind, ...rest }: DeprecatedEntry) => rest;
    return {
      tokens: deprecated.filter((e) => e.kind === 'token').map(strip),
      hooks: deprecated.filter((e) => e.kind === 'hook').map(strip),
      pools: [],
    };
  }
  return {
    tokens: deprecated.tokens ?? [],
    hooks: deprecated.hooks ?? [],
    pools: deprecated.pools ?? [],
  };
}

/** Token and hook entries of either form, in the list form (tokens first, then hooks). */
function deprecatedEntries(deprecated: NetworkFile['deprecated']): DeprecatedEntry[] {
  if (Array.isArray(deprecated)) return deprecated;
  const sections = deprecatedSections(deprecated);
  return [
    ...sections.tokens.map((e): DeprecatedEntry => ({ kind: 'token', ...e })),
    ...sections.hooks.map((e): DeprecatedEntry => ({ kind: 'hook', ...e })),
  ];
}

/** The file's deprecated pools checked: addresses, and an id that is the PoolId of the key. */
function resolveDeprecatedPools(file: NetworkFile): DeprecatedPool[] {
  return deprecatedSections(file.deprecated).pools.map((p, i) => {
    const at = `${file.name}.deprecated.pools[${i}]`;
    const key = {
      currency0: required(p.currency0, `${at}.currency0`),
      currency1: required(p.currency1, `${at}.currency1`),
      fee: p.fee,
      tickSpacing: p.tickSpacing,
      hooks: required(p.hooks, `${at}.hooks`),
    };
    const id = poolIdOf(key);
    if (typeof p.id !== 'string' || p.id.toLowerCase() !== id)
      throw new Error(
        `Network configuration: ${at}.id ${JSON.stringify(p.id ?? null)} is not the PoolId of its key (${id})`,
      );
    return { id, key, reason: p.reason ?? 'A pool of a deprecated ComplianceHook version.' };
  });
}

export interface NetworkOverrides {
  complianceRegistryAddress?: string;
  complianceHookAddress?: string;
  tusdcAddress?: string;
  positionLogsStartBlock?: number;
  positionLogsPageBlocks?: number;
}

/** Exits of a sanctioned wallet are frozen unless a network file says "allow" (docs/security.md). */
export const DEFAULT_EXIT_POLICY = 'freeze' as const;

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** The file's `compliance` object resolved: the zero address means no oracle, like null. */
export function resolveComplianceSettings(
  compliance: NetworkFile['compliance'],
): ComplianceNetworkSettings {
  const oracle = compliance?.sanctionsOracle ?? null;
  const exitPolicy = compliance?.exitPolicy ?? DEFAULT_EXIT_POLICY;
  if (exitPolicy !== 'freeze' && exitPolicy !== 'allow')
    throw new Error(
      `Network configuration: compliance.exitPolicy must be "freeze" or "allow" (got ${JSON.stringify(exitPolicy)})`,
    );
  if (oracle !== null && !isAddress(oracle))
    throw new Error(
      `Network configuration: compliance.sanctionsOracle is not an address (got ${JSON.stringify(oracle)})`,
    );
  return {
    sanctionsOracle: oracle === null || oracle === ZERO_ADDRESS ? null : getAddress(oracle),
    exitPolicy,
  };
}

/** Public RPCs commonly cap eth_getLogs at 10,000 blocks per request. */
export const DEFAULT_POSITION_LOGS: PositionLogsConfig = { startBlock: 0, pageBlocks: 10_000 };

/**
 * Deprecated items of spec §1. Their real test-network addresses are not published, so these are
 * clearly fake, deterministic placeholders (0xdead... prefix) used on the devnet and in the
 * default network file; nothing is deployed there. Replace them per deployment when known.
 */
export const DEPRECATED_ITEMS: DeprecatedEntry[] = [
  {
    kind: 'token',
    label: 'tUSDC v0 (deprecated test stablecoin)',
    address: '0xDeAD00000000000000000000000000000005dc01',
    replacedBy: 'tUSDC',
    reason: 'Its pool was drained and replaced by the tUSDC pool.',
  },
  {
    kind: 'hook',
    label: 'ComplianceHook v1 (deprecated)',
    address: '0xDEaD0000000000000000000000000000000004B1',
    replacedBy: 'complianceHook',
    reason: 'Trusted hookData for the trader identity; replaced by the router-msgSender() hook.',
  },
  {
    kind: 'hook',
    label: 'ComplianceHook v2 (deprecated)',
    address: '0xDeAd0000000000000000000000000000000004B2',
    replacedBy: 'complianceHook',
    reason: 'Did not gate liquidity additions; replaced by the current hook.',
  },
];

function required(value: string | null | undefined, what: string): string {
  if (!value || !isAddress(value)) {
    throw new Error(
      `Network configuration: ${what} is missing or not an address (got ${JSON.stringify(value ?? null)})`,
    );
  }
  return getAddress(value);
}

function resolveDeprecated(
  entries: DeprecatedEntry[],
  tusdc: string,
  hook: string,
): DeprecatedItem[] {
  return entries.map((e) => ({
    kind: e.kind,
    label: e.label,
    address: getAddress(e.address),
    replacedBy: e.replacedBy === 'tUSDC' ? tusdc : hook,
    replacedByLabel: e.replacedBy === 'tUSDC' ? 'tUSDC' : 'ComplianceHook (current)',
    reason: e.reason,
  }));
}

export function resolveNetworkFile(
  file: NetworkFile,
  overrides: NetworkOverrides = {},
): NetworkDefinition {
  const c = file.contracts;
  const contracts = {
    poolManager: required(c.poolManager, `${file.name}.contracts.poolManager`),
    positionManager: required(c.positionManager, `${file.name}.contracts.positionManager`),
    ...(c.positionDescriptor ? { positionDescriptor: getAddress(c.positionDescriptor) } : {}),
    universalRouter: required(c.universalRouter, `${file.name}.contracts.universalRouter`),
    stateView: required(c.stateView, `${file.name}.contracts.stateView`),
    v4Quoter: required(c.v4Quoter, `${file.name}.contracts.v4Quoter`),
    permit2: required(c.permit2, `${file.name}.contracts.permit2`),
    multicall3: required(c.multicall3, `${file.name}.contracts.multicall3`),
    complianceRegistry: required(
      overrides.complianceRegistryAddress ?? c.complianceRegistry,
      'COMPLIANCE_REGISTRY_ADDRESS',
    ),
    complianceHook: required(
      overrides.complianceHookAddress ?? c.complianceHook,
      'COMPLIANCE_HOOK_ADDRESS',
    ),
  };
  const market = resolveMarket(file, contracts.complianceHook, overrides.tusdcAddress);
  const tusdc = market.tokens.tUSDC;
  return {
    name: file.name,
    chainId: file.chainId,
    contracts,
    tokens: market.tokens,
    pool: market.pools[0],
    pools: market.pools,
    positionLogs: {
      startBlock:
        overrides.positionLogsStartBlock ??
        file.positionLogs?.startBlock ??
        DEFAULT_POSITION_LOGS.startBlock,
      pageBlocks:
        overrides.positionLogsPageBlocks ??
        file.positionLogs?.pageBlocks ??
        DEFAULT_POSITION_LOGS.pageBlocks,
    },
    deprecated: resolveDeprecated(
      deprecatedEntries(file.deprecated),
      tusdc.address,
      contracts.complianceHook,
    ),
    deprecatedPools: resolveDeprecatedPools(file),
    compliance: Object.assign(resolveComplianceSettings(file.compliance), resolveCompliance(file)),
    ...resolveHookVersion(file),
  };
}

/** `hookVersion` (2 or 3; absent: 2) and, for v3, its `authorizers` (at least one address). */
export function resolveHookVersion(
  file: Pick<NetworkFile, 'name' | 'hookVersion' | 'authorizers'>,
): { hookVersion: number; authorizers: string[] } {
  const hookVersion = file.hookVersion ?? 2;
  if (hookVersion !== 2 && hookVersion !== 3)
    throw new Error(
      `Network configuration: ${file.name}.hookVersion must be 2 or 3 (got ${JSON.stringify(hookVersion)})`,
    );
  const authorizers = (file.authorizers ?? []).map((a, i) =>
    required(a, `${file.name}.authorizers[${i}]`),
  );
  if (hookVersion === 3 && authorizers.length === 0)
    throw new Error(
      `Network configuration: ${file.name}.authorizers must name at least one address with hookVersion 3`,
    );
  return { hookVersion, authorizers };
}

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** The `compliance` section checked: sources need the EAS contracts, unique names, valid fields. */
export function resolveCompliance(
  file: Pick<NetworkFile, 'name' | 'compliance'>,
): NetworkCompliance {
  const section = file.compliance ?? {};
  const where = `${file.name}.compliance`;
  const fromBlock = section.eas?.fromBlock;
  if (fromBlock !== undefined && (!Number.isSafeInteger(fromBlock) || fromBlock < 0))
    throw new Error(
      `Network configuration: ${where}.eas.fromBlock must be a block number (got ${JSON.stringify(fromBlock)})`,
    );
  const eas = section.eas
    ? {
        eas: required(section.eas.eas, `${where}.eas.eas`),
        schemaRegistry: required(section.eas.schemaRegistry, `${where}.eas.schemaRegistry`),
        indexer: section.eas.indexer ? required(section.eas.indexer, `${where}.eas.indexer`) : null,
        ...(fromBlock !== undefined ? { fromBlock } : {}),
      }
    : null;
  const sources = (section.attestationSources ?? []).map((s, i): AttestationSource => {
    const at = `${where}.attestationSources[${i}]`;
    if (!s.name || !/^[a-z0-9][a-z0-9._-]{0,63}$/.test(s.name))
      throw new Error(
        `Network configuration: ${at}.name must be a lower-case slug (got ${JSON.stringify(s.name ?? null)})`,
      );
    if (!BYTES32.test(s.schema ?? ''))
      throw new Error(`Network configuration: ${at}.schema must be a 32-byte schema uid`);
    if (s.kind !== 'account' && s.kind !== 'country')
      throw new Error(`Network configuration: ${at}.kind must be "account" or "country"`);
    return {
      name: s.name,
      attester: required(s.attester, `${at}.attester`),
      schema: s.schema.toLowerCase(),
      kind: s.kind,
    };
  });
  // The indexer is optional: the service keeps its own index of the sources' attestations.
  if (sources.length > 0 && !eas)
    throw new Error(`Network configuration: ${where}.attestationSources need ${where}.eas`);
  const names = sources.map((s) => s.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup)
    throw new Error(`Network configuration: ${where}.attestationSources name ${dup} appears twice`);
  return { eas, attestationSources: sources };
}

/** Names and decimals of the devnet's tokens (WETH, tUSDC, then the market's test tokens). */
const DEVNET_TOKENS: Record<string, { name: string; decimals: number; test?: boolean }> = {
  WETH: { name: 'Wrapped Ether', decimals: 18 },
  tUSDC: { name: 'Test USD Coin', decimals: 6 },
  tWBTC: { name: 'Test Wrapped BTC', decimals: 8, test: true },
  tEURC: { name: 'Test Euro Coin', decimals: 6, test: true },
};

function devnetTokens(addresses: Record<string, string>): NetworkFile['tokens'] {
  return Object.fromEntries(
    Object.entries(addresses).map(([symbol, address]) => {
      const known = DEVNET_TOKENS[symbol];
      if (!known)
        throw new Error(`the devnet deployed a token ${symbol} its file does not describe`);
      return [
        symbol,
        {
          symbol,
          name: known.name,
          decimals: known.decimals,
          address,
          ...(known.test ? { test: true } : {}),
        },
      ];
    }),
  );
}

/** The network file describing a devnet deployment (what `--write-network-file` commits). */
export function devnetNetworkFile(deployment: DevnetDeployment): NetworkFile {
  return {
    name: 'devnet',
    chainId: deployment.chainId,
    notes: [
      'Generated by `npm run devnet -- --write-network-file`: the embedded devnet deploys to these addresses deterministically.',
      'A test (src/chain/devnet/devnet.spec.ts) fails when a deployment no longer matches this file.',
    ],
    contracts: deployment.contracts,
    tokens: devnetTokens(deployment.tokens),
    pool: { fee: deployment.pool.fee, tickSpacing: deployment.pool.tickSpacing },
    pools: deployment.markets,
    // The devnet deploys the PositionManager in its first blocks: every position is after block 0.
    positionLogs: DEFAULT_POSITION_LOGS,
    deprecated: DEPRECATED_ITEMS,
    compliance: deployment.compliance,
    hookVersion: deployment.hookVersion,
    authorizers: deployment.authorizers,
  };
}

export function devnetNetworkDefinition(
  deployment: DevnetDeployment,
  positionLogs: Pick<NetworkOverrides, 'positionLogsStartBlock' | 'positionLogsPageBlocks'> = {},
): NetworkDefinition {
  return resolveNetworkFile(devnetNetworkFile(deployment), positionLogs);
}
