/**
 * The operator's network file: read it, record what a deployment did in it (pure), and write it
 * back atomically (a temporary file renamed over it: a crash leaves the old file or the new one,
 * never half of one).
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { getAddress, isAddress } from 'ethers';
import type { NetworkDeploymentRecord, NetworkFile } from '../network/network-definition';
import type { DeprecatedPoolEntry } from '../network/network-definition';
import { DEFAULT_POSITION_LOGS, deprecatedSections } from '../network/network-definition';
import { poolIdOf } from '../encoding/pool-key';
import type { Infrastructure, TokenChoice } from './deployment-types';
import type { MarketFilePool } from '../network/network.types';
import { CURRENT_HOOK_VERSION } from './deployment-constants';

export function readOperatorNetworkFile(path: string): NetworkFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the network file ${path}: ${(error as Error).message}`);
  }
  let file: NetworkFile;
  try {
    file = JSON.parse(text) as NetworkFile;
  } catch (error) {
    throw new Error(`the network file ${path} is not JSON: ${(error as Error).message}`);
  }
  if (
    typeof file !== 'object' ||
    file === null ||
    !Number.isInteger(file.chainId) ||
    typeof file.contracts !== 'object' ||
    typeof file.tokens?.WETH !== 'object' ||
    typeof file.tokens?.tUSDC !== 'object' ||
    typeof file.pool !== 'object'
  )
    throw new Error(
      `the network file ${path} lacks chainId, contracts, tokens.WETH, tokens.tUSDC or pool`,
    );
  return file;
}

/** Writes `path` whole or not at all (a temporary file renamed), creating its folders. */
export function writeNetworkFileAtomically(path: string, file: NetworkFile): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let mode = 0o644;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    // A new file.
  }
  writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode });
  renameSync(temporary, path);
}

const INFRASTRUCTURE_FIELDS: Array<[keyof Infrastructure, string]> = [
  ['create2Deployer', 'contracts.create2Deployer'],
  ['poolManager', 'contracts.poolManager'],
  ['positionManager', 'contracts.positionManager'],
  ['universalRouter', 'contracts.universalRouter'],
  ['stateView', 'contracts.stateView'],
  ['v4Quoter', 'contracts.v4Quoter'],
  ['permit2', 'contracts.permit2'],
  ['weth', 'tokens.WETH.address'],
];

/**
 * The public infrastructure a file names (contracts.create2Deployer defaults to the canonical
 * one), or the fields that are missing or not addresses.
 */
export function infrastructureOf(
  file: NetworkFile,
  defaultCreate2Deployer: string,
): { infra: Infrastructure; problems: string[] } {
  const values: Record<keyof Infrastructure, string | null | undefined> = {
    create2Deployer: file.contracts.create2Deployer ?? defaultCreate2Deployer,
    poolManager: file.contracts.poolManager,
    positionManager: file.contracts.positionManager,
    universalRouter: file.contracts.universalRouter,
    stateView: file.contracts.stateView,
    v4Quoter: file.contracts.v4Quoter,
    permit2: file.contracts.permit2,
    weth: file.tokens.WETH.address,
  };
  const problems: string[] = [];
  const infra = {} as Infrastructure;
  for (const [key, field] of INFRASTRUCTURE_FIELDS) {
    const value = values[key];
    if (!value || !isAddress(value)) problems.push(`${field} is missing or not an address`);
    else infra[key] = getAddress(value);
  }
  return { infra, problems };
}

export interface DeploymentUpdate {
  create2Deployer: string;
  /** Only the contracts that have code now. */
  complianceRegistry: string | null;
  complianceHook: string | null;
  token: TokenChoice | null;
  deployer: string;
  attester: string;
  /** Hook v3's authorizers (recorded with the hook as `authorizers`, `hookVersion` 3). */
  authorizers?: string[];
  /** First block of our deployment's transactions (this run's or an earlier one's). */
  block: number | null;
  sqrtPriceX96: string | null;
  /** Transactions sent by this run, by step. */
  transactions: Record<string, string>;
  /**
   * The market once deployed: every token's address (symbol -> address) and the pools keyed on
   * the current hook with their ids (absent: the file's market is left as it is).
   */
  market?: { tokens: Record<string, string>; pools: MarketFilePool[] | undefined } | null;
}

/**
 * A new hook version deployed beside the file's hook (e.g. hook v2, the sanctions oracle, on a
 * network that had v1): the previous hook joins `deprecated.hooks` and its pool (PoolId and key)
 * `deprecated.pools`, each once, in the sectioned form of design §9 (a list-form file is
 * migrated: its token and hook entries keep their places). Builds naming them are then refused
 * with the current pool named, while the old pool's positions can still be exited.
 */
function withReplacedHook(file: NetworkFile, hook: string | null): NetworkFile['deprecated'] {
  const previous = file.contracts.complianceHook;
  const listed = file.deprecated ?? [];
  if (!hook || !previous || getAddress(previous) === getAddress(hook)) return listed;
  const sections = deprecatedSections(listed);
  const old = getAddress(previous);
  const hooks = sections.hooks.some((e) => getAddress(e.address) === old)
    ? sections.hooks
    : [
        ...sections.hooks,
        {
          label: `ComplianceHook at ${old} (deprecated)`,
          address: old,
          replacedBy: 'complianceHook' as const,
          reason: 'Replaced by a newer ComplianceHook version; exits stay open.',
        },
      ];
  const pools = [...sections.pools];
  for (const pool of [previousPool(file, old), ...previousMarketPools(file, old)])
    if (pool !== null && !pools.some((p) => p.id.toLowerCase() === pool.id)) pools.push(pool);
  return { tokens: sections.tokens, hooks, pools };
}

/**
 * The market's other pools (design §9 `pools`) on the previous hook (hooks null or that hook),
 * with tokens resolved: deprecated with it, as its WETH/tUSDC pool is (issue 54: v2 -> v3).
 */
function previousMarketPools(file: NetworkFile, hook: string): DeprecatedPoolEntry[] {
  const addressOf = (c: string): string | null => {
    const value = isAddress(c) ? c : file.tokens[c]?.address;
    return value && isAddress(value) ? getAddress(value) : null;
  };
  return (file.pools ?? []).flatMap((p) => {
    if (p.hooks && getAddress(p.hooks) !== hook) return [];
    const a = addressOf(p.currency0);
    const b = addressOf(p.currency1);
    if (!a || !b) return [];
    const [currency0, currency1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
    const key = { currency0, currency1, fee: p.fee, tickSpacing: p.tickSpacing, hooks: hook };
    return [
      {
        id: poolIdOf(key),
        ...key,
        reason: `A pool of the ComplianceHook at ${hook} (deprecated): positions in it can be exited, not increased.`,
      },
    ];
  });
}

/** The pool the file's tokens, fee and tick spacing form with the previous hook (null: no token yet). */
function previousPool(file: NetworkFile, hook: string): DeprecatedPoolEntry | null {
  const weth = file.tokens.WETH.address;
  const token = file.tokens.tUSDC.address;
  if (!weth || !token || !isAddress(weth) || !isAddress(token)) return null;
  const [currency0, currency1] = [getAddress(weth), getAddress(token)].sort((a, b) =>
    BigInt(a) < BigInt(b) ? -1 : 1,
  );
  const key = {
    currency0,
    currency1,
    fee: file.pool.fee,
    tickSpacing: file.pool.tickSpacing,
    hooks: hook,
  };
  return {
    id: poolIdOf(key),
    ...key,
    reason: `The pool of the ComplianceHook at ${hook} (deprecated): positions in it can be exited, not increased.`,
  };
}

/** The file's tokens with tUSDC and the market's test tokens at the addresses deployed. */
function recordedTokens(file: NetworkFile, update: DeploymentUpdate): NetworkFile['tokens'] {
  const tokens: NetworkFile['tokens'] = {};
  for (const [symbol, entry] of Object.entries(file.tokens)) {
    const address = update.market?.tokens[symbol];
    tokens[symbol] = address && !entry.address ? Object.assign({}, entry, { address }) : entry;
  }
  const token = update.token;
  if (token)
    tokens.tUSDC = {
      symbol: 'tUSDC',
      name: token.name,
      decimals: token.decimals,
      address: token.address,
    };
  return tokens;
}

/** The file with a deployment's addresses, first block and transactions recorded (pure). */
export function recordDeployment(file: NetworkFile, update: DeploymentUpdate): NetworkFile {
  const previous: NetworkDeploymentRecord | null = file.deployment ?? null;
  const blocks = [previous?.block, update.block].filter(
    (b): b is number => b !== undefined && b !== null,
  );
  const block = blocks.length > 0 ? Math.min(...blocks) : (file.positionLogs?.startBlock ?? 0);
  const sqrtPriceX96 = update.sqrtPriceX96 ?? previous?.sqrtPriceX96;
  const deployment: NetworkDeploymentRecord = {
    deployer: update.deployer,
    attester: update.attester,
    block,
    ...(sqrtPriceX96 ? { sqrtPriceX96 } : {}),
    transactions: Object.assign({}, previous?.transactions, update.transactions),
  };
  return Object.assign({}, file, {
    deprecated: withReplacedHook(file, update.complianceHook),
    ...(update.complianceHook
      ? { hookVersion: CURRENT_HOOK_VERSION, authorizers: update.authorizers ?? [update.attester] }
      : {}),
    contracts: Object.assign({}, file.contracts, {
      create2Deployer: update.create2Deployer,
      complianceRegistry: update.complianceRegistry ?? file.contracts.complianceRegistry,
      complianceHook: update.complianceHook ?? file.contracts.complianceHook,
    }),
    tokens: recordedTokens(file, update),
    ...(update.market?.pools ? { pools: update.market.pools } : {}),
    positionLogs: {
      startBlock: block,
      pageBlocks: file.positionLogs?.pageBlocks ?? DEFAULT_POSITION_LOGS.pageBlocks,
    },
    deployment,
  });
}
