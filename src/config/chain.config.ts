import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { getAddress, isAddress } from 'ethers';
import { appModeOf } from './app.config';
import { envBool, envEnum, envInt, envOptional, envUrl, invalidConfig } from './env-reader';

export const CHAIN_NETWORKS = ['devnet', 'base-sepolia'] as const;
export type ChainNetworkName = (typeof CHAIN_NETWORKS)[number];

type Env = Record<string, string | undefined>;

function envAddress(env: Env, name: string): string | undefined {
  const value = envOptional(env, name);
  if (value === undefined) return undefined;
  if (!isAddress(value))
    return invalidConfig(name, 'must be a 0x-prefixed 40-hex-character address', value, undefined);
  return getAddress(value.toLowerCase());
}

/**
 * CHAIN_RPC_URL: one RPC URL, or several separated by commas (the first is the primary; the others
 * take over while it fails: src/chain/rpc-failover.ts). Each must be http or https; a bad one is
 * reported alone, redacted (its path may hold the provider's key).
 */
function envRpcUrls(env: Env): string[] {
  const text = envOptional(env, 'CHAIN_RPC_URL');
  if (text === undefined) return [];
  const urls: string[] = [];
  for (const part of text.split(',')) {
    const url = envUrl({ CHAIN_RPC_URL: part }, 'CHAIN_RPC_URL', ['http', 'https']);
    if (url === undefined && part.trim() === '')
      invalidConfig('CHAIN_RPC_URL', 'must list URLs separated by single commas', text, null);
    if (url !== undefined) urls.push(url);
  }
  return urls;
}

/**
 * CHAIN_NETWORK_FILE: a network file by path (absolute, or relative to the working directory),
 * e.g. the one `npm run devnet -- --bare --network-file F` wrote and `npm run cli -- deploy`
 * completed. It replaces CHAIN_NETWORK (a shipped file by name): setting both is an error.
 */
function networkFilePath(env: Env, rpcUrl: string | undefined): string | undefined {
  const given = envOptional(env, 'CHAIN_NETWORK_FILE');
  if (given === undefined) return undefined;
  const path = resolve(given);
  if (envOptional(env, 'CHAIN_NETWORK') !== undefined)
    return invalidConfig(
      'CHAIN_NETWORK_FILE',
      'cannot be combined with CHAIN_NETWORK: set one of them (CHAIN_NETWORK names a shipped network file, CHAIN_NETWORK_FILE a file by path)',
      given,
      path,
    );
  if (!rpcUrl)
    invalidConfig(
      'CHAIN_RPC_URL',
      'is required with CHAIN_NETWORK_FILE (the RPC of the chain the file describes)',
      undefined,
      undefined,
    );
  if (!existsSync(path))
    return invalidConfig(
      'CHAIN_NETWORK_FILE',
      `must name a file (${path} does not exist)`,
      given,
      path,
    );
  return path;
}

/**
 * Chain access. No CHAIN_RPC_URL: the service starts its embedded devnet (DEVNET_PORT). The
 * addresses come from the network file at CHAIN_NETWORK_FILE, or else the shipped one named by
 * CHAIN_NETWORK: `devnet` by default in demo mode (embedded devnet, `npm run devnet`, the test
 * helper), `base-sepolia` by default in production mode. The attester key and the session length
 * belong to the compliance namespace.
 */
export const chainConfig = registerAs('chain', () => {
  const env = process.env;
  const rpcUrls = envRpcUrls(env);
  const rpcUrl = rpcUrls[0] as string | undefined;
  const production = appModeOf(env) === 'production';
  const underTest = env.NODE_ENV === 'test';
  const networkFile = networkFilePath(env, rpcUrl);
  const network = envEnum<ChainNetworkName>(
    env,
    'CHAIN_NETWORK',
    CHAIN_NETWORKS,
    production ? 'base-sepolia' : 'devnet',
  );
  if (!rpcUrl && !networkFile && network !== 'devnet')
    invalidConfig('CHAIN_RPC_URL', `is required when CHAIN_NETWORK=${network}`, undefined, null);
  const overrides = {
    complianceRegistryAddress: envAddress(env, 'COMPLIANCE_REGISTRY_ADDRESS'),
    complianceHookAddress: envAddress(env, 'COMPLIANCE_HOOK_ADDRESS'),
    tusdcAddress: envAddress(env, 'TUSDC_ADDRESS'),
    // Position discovery (eth_getLogs): first block and blocks per request; default: the network file.
    positionLogsStartBlock: envOptional(env, 'CHAIN_LOGS_START_BLOCK')
      ? envInt(env, 'CHAIN_LOGS_START_BLOCK', 0, { min: 0, max: Number.MAX_SAFE_INTEGER })
      : undefined,
    positionLogsPageBlocks: envOptional(env, 'CHAIN_LOGS_PAGE_BLOCKS')
      ? envInt(env, 'CHAIN_LOGS_PAGE_BLOCKS', 10_000, { min: 1, max: 1_000_000 })
      : undefined,
  };
  // What the file holds (a network file, our contracts deployed) is the chain layer's to judge:
  // src/chain/network/network-loader.ts refuses it at start, naming the fields and what to run.
  if (network === 'base-sepolia' && !networkFile) {
    // Our contracts are not in the public network file: a deployment must name them.
    for (const [name, value] of [
      ['COMPLIANCE_REGISTRY_ADDRESS', overrides.complianceRegistryAddress],
      ['COMPLIANCE_HOOK_ADDRESS', overrides.complianceHookAddress],
      ['TUSDC_ADDRESS', overrides.tusdcAddress],
    ] as const) {
      if (!value)
        invalidConfig(name, 'is required with CHAIN_NETWORK=base-sepolia', undefined, null);
    }
  }
  return {
    /** The primary RPC URL (the first of CHAIN_RPC_URL). Undefined: start the embedded devnet. */
    rpcUrl,
    /** Every URL of CHAIN_RPC_URL, in order of preference; empty: the embedded devnet. */
    rpcUrls,
    /** How long a failed RPC URL is passed over; doubled per consecutive failure. */
    rpcBackoffMs: envInt(env, 'CHAIN_RPC_BACKOFF_MS', 5_000, { min: 0, max: 3_600_000 }),
    /** The longest a failed URL is passed over, a provider's Retry-After included. */
    rpcBackoffMaxMs: envInt(env, 'CHAIN_RPC_BACKOFF_MAX_MS', 60_000, { min: 0, max: 3_600_000 }),
    /** The shipped network file the service reads, unless networkFile is set. */
    network,
    /** Absolute path of the operator's network file (CHAIN_NETWORK_FILE); replaces `network`. */
    networkFile,
    devnetPort: envInt(env, 'DEVNET_PORT', underTest ? 0 : 8545, { min: 0, max: 65535 }),
    /**
     * Share one embedded devnet among all app instances of this process instead of one each (and
     * leave it running until the process exits). Default on under jest (NODE_ENV=test), where a
     * worker boots many apps; tests that need an isolated chain use test/helpers/devnet.ts.
     */
    devnetShared: envBool(env, 'DEVNET_SHARED', underTest),
    /** Total time budget of one chain read, retries included: past it the caller gets 503. */
    timeoutMs: envInt(env, 'CHAIN_TIMEOUT_MS', 3_000, { min: 100, max: 60_000 }),
    /** Extra attempts after a transport failure, within timeoutMs (reverts are never retried). */
    retries: envInt(env, 'CHAIN_RETRIES', 1, { min: 0, max: 5 }),
    /** Readiness probe (eth_chainId) budget. */
    healthTimeoutMs: envInt(env, 'CHAIN_HEALTH_TIMEOUT_MS', 1_000, { min: 100, max: 10_000 }),
    /** Embedded devnet start budget. */
    devnetStartTimeoutMs: envInt(env, 'DEVNET_START_TIMEOUT_MS', 30_000, {
      min: 1_000,
      max: 300_000,
    }),
    overrides,
  };
});

export type ChainConfig = ConfigType<typeof chainConfig>;
/** The DI token of this namespace (see configToken). */
export const ChainConfig = configToken(chainConfig);
