import { getAddress } from 'ethers';
import baseSepolia from '../../config/networks/base-sepolia.json';
import devnetFile from '../../config/networks/devnet.json';
import { chainConfig } from '../../config/chain.config';
import { poolIdOf } from '../encoding/pool-key';
import {
  DEFAULT_POSITION_LOGS,
  NetworkFile,
  resolveComplianceSettings,
  resolveNetworkFile,
} from './network-definition';

const ours = {
  complianceRegistryAddress: '0x1111111111111111111111111111111111111111',
  complianceHookAddress: '0x0000000000000000000000000000000000000880',
  tusdcAddress: getAddress(`0x${'f'.repeat(40)}`),
};

function withEnv<T>(env: Record<string, string | undefined>, fn: () => T): T {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    return fn();
  } finally {
    process.env = saved;
  }
}

describe('network definitions', () => {
  it('resolves the Base Sepolia file with our contracts from env, WETH as token0', () => {
    const net = resolveNetworkFile(baseSepolia as NetworkFile, ours);
    expect(net.chainId).toBe(84532);
    expect(net.tokens.WETH.address).toBe('0x4200000000000000000000000000000000000006');
    const key = {
      currency0: net.tokens.WETH.address,
      currency1: ours.tusdcAddress,
      fee: 3000,
      tickSpacing: 60,
      hooks: ours.complianceHookAddress,
    };
    expect(net.pool).toEqual({ id: poolIdOf(key), ...key });
    // Without a `pools` list, the market is the spec's pool alone.
    expect(net.pools).toEqual([net.pool]);
    expect(net.deprecated.map((d) => [d.kind, d.replacedBy])).toEqual([
      ['token', ours.tusdcAddress],
      ['hook', ours.complianceHookAddress],
      ['hook', ours.complianceHookAddress],
    ]);
  });

  it('refuses a Base Sepolia configuration without our contracts', () => {
    expect(() => resolveNetworkFile(baseSepolia as NetworkFile)).toThrow(
      /COMPLIANCE_REGISTRY_ADDRESS/,
    );
  });

  it('resolves the devnet file as is, with one shape for both', () => {
    const net = resolveNetworkFile(devnetFile as NetworkFile);
    expect(Object.keys(net).sort()).toEqual(
      Object.keys(resolveNetworkFile(baseSepolia as NetworkFile, ours)).sort(),
    );
    expect(BigInt(net.tokens.WETH.address) < BigInt(net.tokens.tUSDC.address)).toBe(true);
  });

  it('takes the position-log start block and page size from the file, overridable', () => {
    expect(resolveNetworkFile(devnetFile as NetworkFile).positionLogs).toEqual({
      startBlock: 0,
      pageBlocks: 10_000,
    });
    const { positionLogs: _none, ...withoutLogs } = devnetFile as NetworkFile;
    expect(resolveNetworkFile(withoutLogs as NetworkFile).positionLogs).toEqual(
      DEFAULT_POSITION_LOGS,
    );
    expect(
      resolveNetworkFile(baseSepolia as NetworkFile, {
        ...ours,
        positionLogsStartBlock: 12_345_678,
        positionLogsPageBlocks: 2_000,
      }).positionLogs,
    ).toEqual({ startBlock: 12_345_678, pageBlocks: 2_000 });
  });
});

describe('chain config', () => {
  const clean = {
    CHAIN_RPC_URL: undefined,
    CHAIN_NETWORK: undefined,
    APP_MODE: undefined,
    COMPLIANCE_REGISTRY_ADDRESS: undefined,
    COMPLIANCE_HOOK_ADDRESS: undefined,
    TUSDC_ADDRESS: undefined,
    CHAIN_LOGS_START_BLOCK: undefined,
    CHAIN_LOGS_PAGE_BLOCKS: undefined,
  };

  it('defaults to the embedded devnet in demo mode', () => {
    expect(withEnv(clean, () => chainConfig())).toMatchObject({
      rpcUrl: undefined,
      network: 'devnet',
      timeoutMs: 3_000,
      retries: 1,
    });
  });

  it('requires an RPC URL and our addresses for base-sepolia, and fails with the variable name', () => {
    expect(() => withEnv({ ...clean, CHAIN_NETWORK: 'base-sepolia' }, () => chainConfig())).toThrow(
      /CHAIN_RPC_URL/,
    );
    expect(() =>
      withEnv({ ...clean, APP_MODE: 'production', CHAIN_RPC_URL: 'https://sepolia.base.org' }, () =>
        chainConfig(),
      ),
    ).toThrow(/COMPLIANCE_REGISTRY_ADDRESS/);
    expect(() =>
      withEnv({ ...clean, COMPLIANCE_HOOK_ADDRESS: '0x123' }, () => chainConfig()),
    ).toThrow(/COMPLIANCE_HOOK_ADDRESS/);
    expect(() => withEnv({ ...clean, CHAIN_RPC_URL: 'ftp://x' }, () => chainConfig())).toThrow(
      /CHAIN_RPC_URL/,
    );
  });

  it('reads the position-log overrides, and refuses a page size of 0', () => {
    expect(
      withEnv({ ...clean, CHAIN_LOGS_START_BLOCK: '19000000', CHAIN_LOGS_PAGE_BLOCKS: '500' }, () =>
        chainConfig(),
      ).overrides,
    ).toMatchObject({ positionLogsStartBlock: 19_000_000, positionLogsPageBlocks: 500 });
    expect(withEnv(clean, () => chainConfig()).overrides.positionLogsPageBlocks).toBeUndefined();
    expect(() => withEnv({ ...clean, CHAIN_LOGS_PAGE_BLOCKS: '0' }, () => chainConfig())).toThrow(
      /CHAIN_LOGS_PAGE_BLOCKS/,
    );
  });
});

describe('compliance settings of a network file (sanctions oracle, exit policy)', () => {
  it('resolves the devnet oracle, and reads no oracle from null, the zero address or no object', () => {
    const devnet = resolveNetworkFile(devnetFile as NetworkFile);
    expect(devnet.compliance).toMatchObject({
      sanctionsOracle: getAddress(devnetFile.compliance.sanctionsOracle),
      exitPolicy: 'freeze',
    });
    expect(baseSepolia.compliance).toMatchObject({ sanctionsOracle: null, exitPolicy: 'freeze' });
    const none = { sanctionsOracle: null, exitPolicy: 'freeze' };
    expect(resolveComplianceSettings(undefined)).toEqual(none);
    expect(
      resolveComplianceSettings({ sanctionsOracle: '0x0000000000000000000000000000000000000000' }),
    ).toEqual(none);
    expect(resolveComplianceSettings({ exitPolicy: 'allow' }).exitPolicy).toBe('allow');
  });

  it('refuses an exit policy it does not know and an oracle that is not an address', () => {
    expect(() => resolveComplianceSettings({ exitPolicy: 'thaw' as unknown as 'allow' })).toThrow(
      /compliance.exitPolicy must be "freeze" or "allow"/,
    );
    expect(() => resolveComplianceSettings({ sanctionsOracle: '0x1234' })).toThrow(
      /compliance.sanctionsOracle is not an address/,
    );
  });
});

describe('deprecated items of a network file (list form and the sections of design §9)', () => {
  const file = devnetFile as NetworkFile;
  const list = file.deprecated as Extract<NetworkFile['deprecated'], unknown[]>;
  const strip = ({ kind: _kind, ...rest }: (typeof list)[number]) => rest;
  const oldHook = getAddress('0x0000000000000000000000000000000000000a80');
  const oldKey = {
    currency0: getAddress(file.tokens.WETH.address!),
    currency1: getAddress(file.tokens.tUSDC.address!),
    fee: file.pool.fee,
    tickSpacing: file.pool.tickSpacing,
    hooks: oldHook,
  };
  const sections = (id: string): NetworkFile => ({
    ...file,
    deprecated: {
      tokens: list.filter((e) => e.kind === 'token').map(strip),
      hooks: list.filter((e) => e.kind === 'hook').map(strip),
      pools: [{ id, ...oldKey, reason: 'v1 pool' }],
    },
  });

  it('reads both forms to the same refused tokens and hooks; only sections carry pools', () => {
    const fromList = resolveNetworkFile(file);
    const fromSections = resolveNetworkFile(sections(poolIdOf(oldKey)));
    expect(fromSections.deprecated).toEqual(fromList.deprecated);
    expect(fromList.deprecatedPools).toEqual([]);
    expect(fromSections.deprecatedPools).toEqual([
      { id: poolIdOf(oldKey), key: oldKey, reason: 'v1 pool' },
    ]);
  });

  it('refuses a deprecated pool whose id is not the PoolId of its key', () => {
    expect(() => resolveNetworkFile(sections(`0x${'ab'.repeat(32)}`))).toThrow(
      /deprecated.pools\[0\].id .* is not the PoolId of its key/,
    );
  });
});
