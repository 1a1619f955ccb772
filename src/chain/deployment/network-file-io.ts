/**
 * The operator's network file: read it, record what a deployment did in it (pure), and write it
 * back atomically (a temporary file renamed over it: a crash leaves the old file or the new one,
 * never half of one).
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { getAddress, isAddress } from 'ethers';
import type { NetworkDeploymentRecord, NetworkFile } from '../network/network-definition';
import { DEFAULT_POSITION_LOGS } from '../network/network-definition';
import type { Infrastructure, TokenChoice } from './deployment-types';

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
  /** First block of our deployment's transactions (this run's or an earlier one's). */
  block: number | null;
  sqrtPriceX96: string | null;
  /** Transactions sent by this run, by step. */
  transactions: Record<string, string>;
}

/**
 * A new hook version deployed beside the file's hook (e.g. hook v2, the sanctions oracle, on a
 * network that had v1): the previous hook joins `deprecated` (once), so builds naming it are
 * refused with the current hook named, while its positions can still be exited.
 */
function withReplacedHook(file: NetworkFile, hook: string | null): NetworkFile['deprecated'] {
  const previous = file.contracts.complianceHook;
  const listed = file.deprecated ?? [];
  if (!hook || !previous || getAddress(previous) === getAddress(hook)) return listed;
  if (listed.some((e) => getAddress(e.address) === getAddress(previous))) return listed;
  return [
    ...listed,
    {
      kind: 'hook',
      label: `ComplianceHook at ${getAddress(previous)} (deprecated)`,
      address: getAddress(previous),
      replacedBy: 'complianceHook',
      reason: 'Replaced by a newer ComplianceHook version (sanctions screening); exits stay open.',
    },
  ];
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
  const token = update.token;
  return Object.assign({}, file, {
    deprecated: withReplacedHook(file, update.complianceHook),
    contracts: Object.assign({}, file.contracts, {
      create2Deployer: update.create2Deployer,
      complianceRegistry: update.complianceRegistry ?? file.contracts.complianceRegistry,
      complianceHook: update.complianceHook ?? file.contracts.complianceHook,
    }),
    tokens: {
      WETH: file.tokens.WETH,
      tUSDC: token
        ? {
            symbol: 'tUSDC' as const,
            name: token.name,
            decimals: token.decimals,
            address: token.address,
          }
        : file.tokens.tUSDC,
    },
    positionLogs: {
      startBlock: block,
      pageBlocks: file.positionLogs?.pageBlocks ?? DEFAULT_POSITION_LOGS.pageBlocks,
    },
    deployment,
  });
}
