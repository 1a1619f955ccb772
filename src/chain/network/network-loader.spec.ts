import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidConfigurationError, validateConfiguration } from '../../config';
import { checkConfiguredNetworkFile, NETWORKS_DIR } from './network-loader';

const DEVNET_FILE = join(NETWORKS_DIR, 'devnet.json');

/** The chain's and the mode's variables, then only `env`. */
const VARIABLES = [
  'APP_MODE',
  'CHAIN_RPC_URL',
  'CHAIN_NETWORK',
  'CHAIN_NETWORK_FILE',
  'CHAIN_TIMEOUT_MS',
  'COMPLIANCE_REGISTRY_ADDRESS',
  'COMPLIANCE_HOOK_ADDRESS',
  'TUSDC_ADDRESS',
];

/** What validateConfiguration (as main.ts calls it) reports for `env`: one line per setting. */
function problemsWith(env: Record<string, string>): string[] {
  const saved = { ...process.env };
  for (const name of VARIABLES) delete process.env[name];
  Object.assign(process.env, env);
  try {
    validateConfiguration([checkConfiguredNetworkFile]);
    return [];
  } catch (error) {
    if (!(error instanceof InvalidConfigurationError)) throw error;
    return error.problems.map((p) => p.problem);
  } finally {
    process.env = saved;
  }
}

describe('checkConfiguredNetworkFile: what CHAIN_NETWORK_FILE holds, checked with the configuration', () => {
  const rpc = { CHAIN_RPC_URL: 'http://127.0.0.1:8545' };
  let dir: string;
  let bare: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'network-loader-'));
    bare = join(dir, 'bare.json');
    const file = JSON.parse(readFileSync(DEVNET_FILE, 'utf8'));
    file.contracts.complianceRegistry = null;
    file.contracts.complianceHook = null;
    file.tokens.tUSDC.address = null;
    writeFileSync(bare, JSON.stringify(file));
    writeFileSync(join(dir, 'not-json.json'), '{"name":');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts a complete file', () => {
    expect(problemsWith({ ...rpc, CHAIN_NETWORK_FILE: DEVNET_FILE })).toEqual([]);
  });

  it('refuses a file our deployment is missing from, naming each null field and the deploy command', () => {
    expect(problemsWith({ ...rpc, CHAIN_NETWORK_FILE: bare })).toEqual([
      `CHAIN_NETWORK_FILE names no deployment: contracts.complianceRegistry, contracts.complianceHook, tokens.tUSDC.address are null: our contracts are not deployed on this network yet; run npm run cli -- deploy --rpc <CHAIN_RPC_URL> --network-file ${bare} --deployer-key-file <file> (got "${bare}")`,
    ]);
  });

  it('serves it when env names the missing addresses (COMPLIANCE_*_ADDRESS, TUSDC_ADDRESS)', () => {
    const devnet = JSON.parse(readFileSync(DEVNET_FILE, 'utf8'));
    expect(
      problemsWith({
        ...rpc,
        CHAIN_NETWORK_FILE: bare,
        COMPLIANCE_REGISTRY_ADDRESS: devnet.contracts.complianceRegistry,
        COMPLIANCE_HOOK_ADDRESS: devnet.contracts.complianceHook,
        TUSDC_ADDRESS: devnet.tokens.tUSDC.address,
      }),
    ).toEqual([]);
  });

  it('reports what is not a network file, with every other problem of the start', () => {
    expect(
      problemsWith({
        CHAIN_NETWORK_FILE: join(dir, 'not-json.json'),
        CHAIN_TIMEOUT_MS: 'soon',
        COMPLIANCE_HOOK_ADDRESS: '0x12',
      }),
    ).toEqual([
      'CHAIN_RPC_URL is required with CHAIN_NETWORK_FILE (the RPC of the chain the file describes) (it is not set)',
      'COMPLIANCE_HOOK_ADDRESS must be a 0x-prefixed 40-hex-character address (got "0x12")',
      'CHAIN_TIMEOUT_MS must be an integer between 100 and 60000 (got "soon")',
      expect.stringMatching(
        /^CHAIN_NETWORK_FILE must be a network file: Network file \S+not-json\.json cannot be read: /,
      ),
    ]);
  });
});
