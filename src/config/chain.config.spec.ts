import { join, relative } from 'node:path';
import { chainConfig } from './chain.config';

const DEVNET_FILE = join(__dirname, 'networks', 'devnet.json');

const CHAIN_VARIABLES = [
  'CHAIN_RPC_URL',
  'CHAIN_NETWORK',
  'CHAIN_NETWORK_FILE',
  'CHAIN_TIMEOUT_MS',
  'CHAIN_RPC_BACKOFF_MS',
  'CHAIN_RPC_BACKOFF_MAX_MS',
  'APP_MODE',
  'COMPLIANCE_REGISTRY_ADDRESS',
  'COMPLIANCE_HOOK_ADDRESS',
  'TUSDC_ADDRESS',
];

function withChainEnv<T>(env: Record<string, string | undefined>, run: () => T): T {
  const saved = { ...process.env };
  for (const name of CHAIN_VARIABLES) delete process.env[name];
  for (const [name, value] of Object.entries(env))
    if (value !== undefined) process.env[name] = value;
  try {
    return run();
  } finally {
    process.env = saved;
  }
}

const configWith = (env: Record<string, string | undefined>) => withChainEnv(env, chainConfig);

describe('chainConfig: CHAIN_NETWORK_FILE', () => {
  const rpc = { CHAIN_RPC_URL: 'http://127.0.0.1:8545' };

  it('takes a file by absolute path, or relative to the working directory', () => {
    expect(configWith({ ...rpc, CHAIN_NETWORK_FILE: DEVNET_FILE }).networkFile).toBe(DEVNET_FILE);
    expect(
      configWith({ ...rpc, CHAIN_NETWORK_FILE: relative(process.cwd(), DEVNET_FILE) }).networkFile,
    ).toBe(DEVNET_FILE);
    expect(configWith(rpc).networkFile).toBeUndefined();
  });

  it('needs no COMPLIANCE_* addresses in production mode: the file names our contracts', () => {
    expect(
      configWith({ ...rpc, APP_MODE: 'production', CHAIN_NETWORK_FILE: DEVNET_FILE }),
    ).toMatchObject({ networkFile: DEVNET_FILE, rpcUrl: rpc.CHAIN_RPC_URL });
  });

  it('refuses it together with CHAIN_NETWORK, naming both', () => {
    expect(() =>
      configWith({ ...rpc, CHAIN_NETWORK: 'base-sepolia', CHAIN_NETWORK_FILE: DEVNET_FILE }),
    ).toThrow(/CHAIN_NETWORK_FILE cannot be combined with CHAIN_NETWORK/);
  });

  it('refuses it without CHAIN_RPC_URL, and a path that does not exist', () => {
    expect(() => configWith({ CHAIN_NETWORK_FILE: DEVNET_FILE })).toThrow(
      /CHAIN_RPC_URL is required with CHAIN_NETWORK_FILE/,
    );
    expect(() => configWith({ ...rpc, CHAIN_NETWORK_FILE: 'nowhere/network.json' })).toThrow(
      /CHAIN_NETWORK_FILE must name a file \(\/\S+\/nowhere\/network\.json does not exist\)/,
    );
  });
});

describe('chainConfig: CHAIN_RPC_URL', () => {
  it('takes several URLs separated by commas, the first being the primary', () => {
    const config = configWith({
      CHAIN_RPC_URL: ' https://a.example.com/v2/KEY1 , http://127.0.0.1:8545',
    });
    expect(config.rpcUrls).toEqual(['https://a.example.com/v2/KEY1', 'http://127.0.0.1:8545']);
    expect(config.rpcUrl).toBe('https://a.example.com/v2/KEY1');
    expect(configWith({}).rpcUrls).toEqual([]);
    expect(configWith({}).rpcUrl).toBeUndefined();
  });

  it('refuses a bad URL of the list without echoing any key', () => {
    const message = () => {
      try {
        configWith({ CHAIN_RPC_URL: 'https://a.example.com/v2/KEY1,ws://b.example.com/KEY2' });
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(message()).toMatch(/CHAIN_RPC_URL must use one of the protocols http, https/);
    expect(message()).not.toMatch(/KEY1|KEY2/);
    expect(() => configWith({ CHAIN_RPC_URL: 'http://127.0.0.1:1,,http://127.0.0.1:2' })).toThrow(
      /CHAIN_RPC_URL must list URLs separated by single commas/,
    );
  });

  it('bounds the cool-down of a failed URL (defaults 5 s, up to 60 s)', () => {
    expect(configWith({})).toMatchObject({ rpcBackoffMs: 5_000, rpcBackoffMaxMs: 60_000 });
    expect(
      configWith({ CHAIN_RPC_BACKOFF_MS: '250', CHAIN_RPC_BACKOFF_MAX_MS: '1000' }),
    ).toMatchObject({ rpcBackoffMs: 250, rpcBackoffMaxMs: 1_000 });
    expect(() => configWith({ CHAIN_RPC_BACKOFF_MS: '-1' })).toThrow(/CHAIN_RPC_BACKOFF_MS/);
  });
});
