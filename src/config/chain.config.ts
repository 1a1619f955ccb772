import { ConfigType, registerAs } from '@nestjs/config';
import { getAddress, isAddress } from 'ethers';
import { appModeOf } from './app.config';
import { envBool, envEnum, envInt, envOptional, envUrl, InvalidConfigError } from './env-reader';

export const CHAIN_NETWORKS = ['devnet', 'base-sepolia'] as const;
export type ChainNetworkName = (typeof CHAIN_NETWORKS)[number];

type Env = Record<string, string | undefined>;

function envAddress(env: Env, name: string): string | undefined {
  const value = envOptional(env, name);
  if (value === undefined) return undefined;
  if (!isAddress(value))
    throw new InvalidConfigError(name, 'must be a 0x-prefixed 40-hex-character address', value);
  return getAddress(value.toLowerCase());
}

/**
 * Chain access. No CHAIN_RPC_URL: the service starts its embedded devnet (DEVNET_PORT). The
 * addresses come from the network file named by CHAIN_NETWORK: `devnet` by default in demo mode
 * (embedded devnet, `npm run devnet`, the test helper), `base-sepolia` by default in production
 * mode. The attester key and the session length belong to the compliance namespace.
 */
export const chainConfig = registerAs('chain', () => {
  const env = process.env;
  const rpcUrl = envUrl(env, 'CHAIN_RPC_URL', ['http', 'https']);
  const production = appModeOf(env) === 'production';
  const underTest = env.NODE_ENV === 'test';
  const network = envEnum<ChainNetworkName>(
    env,
    'CHAIN_NETWORK',
    CHAIN_NETWORKS,
    production ? 'base-sepolia' : 'devnet',
  );
  if (!rpcUrl && network !== 'devnet') {
    throw new InvalidConfigError(
      'CHAIN_RPC_URL',
      `is required when CHAIN_NETWORK=${network}`,
      undefined,
    );
  }
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
  if (network === 'base-sepolia') {
    // Our contracts are not in the public network file: a deployment must name them.
    for (const [name, value] of [
      ['COMPLIANCE_REGISTRY_ADDRESS', overrides.complianceRegistryAddress],
      ['COMPLIANCE_HOOK_ADDRESS', overrides.complianceHookAddress],
      ['TUSDC_ADDRESS', overrides.tusdcAddress],
    ] as const) {
      if (!value)
        throw new InvalidConfigError(
          name,
          'is required with CHAIN_NETWORK=base-sepolia',
          undefined,
        );
    }
  }
  return {
    /** Undefined: start the embedded devnet. */
    rpcUrl,
    network,
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
