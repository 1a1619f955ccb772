/**
 * Reads a network file: a shipped one, src/config/networks/<name>.json (copied to
 * dist/config/networks by the build's --copy-files), or an operator's file by path (CHAIN_NETWORK_FILE).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chainConfig, type ChainNetworkName } from '../../config/chain.config';
import { invalidConfig } from '../../config/env-reader';
import {
  DEFAULT_POSITION_LOGS,
  NetworkFile,
  NetworkOverrides,
  resolveNetworkFile,
} from './network-definition';
import type { NetworkDefinition } from './network.types';

export const NETWORKS_DIR = join(__dirname, '..', '..', 'config', 'networks');

export function readNetworkFile(name: ChainNetworkName): NetworkFile {
  return JSON.parse(readFileSync(join(NETWORKS_DIR, `${name}.json`), 'utf8')) as NetworkFile;
}

/** An operator's network file; a message naming the path when it is not a network file. */
export function readNetworkFileAt(path: string): NetworkFile {
  let file: NetworkFile;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as NetworkFile;
  } catch (err) {
    throw new Error(`Network file ${path} cannot be read: ${(err as Error).message}`);
  }
  const missing = ['name', 'chainId', 'contracts', 'tokens', 'pool'].filter(
    (key) => typeof file !== 'object' || file === null || !(key in file),
  );
  if (missing.length > 0)
    throw new Error(`Network file ${path} is not a network file (no ${missing.join(', ')})`);
  return file;
}

/** The network the service targets, and the file it came from (env overrides applied). */
export interface LoadedNetwork {
  definition: NetworkDefinition;
  file: NetworkFile;
  /** Where the file came from, for messages: its path, or `base-sepolia (shipped)`. */
  source: string;
}

export function loadNetwork(
  name: ChainNetworkName,
  overrides: NetworkOverrides = {},
): LoadedNetwork {
  const file = withOverrides(readNetworkFile(name), overrides);
  return {
    definition: resolveNetworkFile(file, overrides),
    file,
    source: `${name} (src/config/networks/${name}.json)`,
  };
}

/**
 * The fields of our deployment still null in `file` (a file written by `npm run devnet -- --bare`
 * and not yet completed by `deploy`), after the env overrides.
 */
export function undeployedFields(file: NetworkFile, overrides: NetworkOverrides = {}): string[] {
  const ours: Array<[string, string | null | undefined]> = [
    [
      'contracts.complianceRegistry',
      overrides.complianceRegistryAddress ?? file.contracts.complianceRegistry,
    ],
    ['contracts.complianceHook', overrides.complianceHookAddress ?? file.contracts.complianceHook],
    ['tokens.tUSDC.address', overrides.tusdcAddress ?? file.tokens?.tUSDC?.address],
  ];
  return ours.filter(([, value]) => !value).map(([field]) => field);
}

/** Why a file with undeployed fields cannot be served, and what to run. */
export function undeployedMessage(path: string, fields: string[]): string {
  return (
    `${fields.join(', ')} ${fields.length > 1 ? 'are' : 'is'} null: our contracts are not deployed on this network yet; ` +
    `run npm run cli -- deploy --rpc <CHAIN_RPC_URL> --network-file ${path} --deployer-key-file <file>`
  );
}

/**
 * An operator's file by path. Our contracts still null stop the start with the fields and what to
 * run (validateConfiguration reports it first, with every other setting to fix).
 */
export function loadNetworkFileAt(path: string, overrides: NetworkOverrides = {}): LoadedNetwork {
  const file = withOverrides(readNetworkFileAt(path), overrides);
  const undeployed = undeployedFields(file);
  if (undeployed.length > 0)
    throw new Error(`Network file ${path}: ${undeployedMessage(path, undeployed)}`);
  return { definition: resolveNetworkFile(file, overrides), file, source: path };
}

/** The file as the service reads it: COMPLIANCE_REGISTRY_ADDRESS, CHAIN_LOGS_* & co. replace its values. */
function withOverrides(file: NetworkFile, overrides: NetworkOverrides): NetworkFile {
  const { complianceRegistryAddress, complianceHookAddress, tusdcAddress } = overrides;
  const { positionLogsStartBlock: startBlock, positionLogsPageBlocks: pageBlocks } = overrides;
  const read = structuredClone(file);
  read.contracts.complianceRegistry =
    complianceRegistryAddress ?? file.contracts.complianceRegistry;
  read.contracts.complianceHook = complianceHookAddress ?? file.contracts.complianceHook;
  read.tokens.tUSDC.address = tusdcAddress ?? file.tokens.tUSDC.address;
  read.positionLogs = {
    startBlock: startBlock ?? file.positionLogs?.startBlock ?? DEFAULT_POSITION_LOGS.startBlock,
    pageBlocks: pageBlocks ?? file.positionLogs?.pageBlocks ?? DEFAULT_POSITION_LOGS.pageBlocks,
  };
  return read;
}

/**
 * The configuration check of CHAIN_NETWORK_FILE's content, for validateConfiguration: a network
 * file that names our deployment (or env names the missing addresses). Reported with every other
 * setting to fix, before anything starts.
 */
export function checkConfiguredNetworkFile(): void {
  const { networkFile: path, overrides } = chainConfig();
  if (!path) return;
  let undeployed: string[];
  try {
    undeployed = undeployedFields(readNetworkFileAt(path), overrides);
  } catch (error) {
    invalidConfig(
      'CHAIN_NETWORK_FILE',
      `must be a network file: ${(error as Error).message}`,
      path,
      null,
    );
    return;
  }
  if (undeployed.length > 0)
    invalidConfig(
      'CHAIN_NETWORK_FILE',
      `names no deployment: ${undeployedMessage(path, undeployed)}`,
      path,
      null,
    );
}
