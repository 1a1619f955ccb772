import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NetworkFile } from '../network/network-definition';
import {
  infrastructureOf,
  readOperatorNetworkFile,
  recordDeployment,
  writeNetworkFileAtomically,
} from './network-file-io';

const A = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const FILE: NetworkFile = {
  name: 'bare',
  chainId: 84532,
  contracts: {
    poolManager: A(1),
    positionManager: A(2),
    universalRouter: A(3),
    stateView: A(4),
    v4Quoter: A(5),
    permit2: A(6),
    multicall3: A(7),
    complianceRegistry: null,
    complianceHook: null,
  },
  tokens: {
    WETH: { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, address: A(8) },
    tUSDC: { symbol: 'tUSDC', name: 'Test USD Coin', decimals: 6, address: null },
  },
  pool: { fee: 3000, tickSpacing: 60 },
  positionLogs: { startBlock: 0, pageBlocks: 10_000 },
  deprecated: [],
};

describe('network file I/O', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'network-file-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the folders of a new file (devnet --bare --network-file a/b.json)', () => {
    const path = join(dir, 'a', 'b', 'bare.json');
    writeNetworkFileAtomically(path, FILE);
    expect(readOperatorNetworkFile(path)).toEqual(FILE);
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['bare.json']);
  });

  it('names each missing infrastructure field, and defaults the CREATE2 deployer', () => {
    const broken = structuredClone(FILE);
    broken.contracts.v4Quoter = null;
    broken.tokens.WETH.address = 'weth';
    const { problems, infra } = infrastructureOf(broken, A(99));
    expect(problems).toEqual([
      'contracts.v4Quoter is missing or not an address',
      'tokens.WETH.address is missing or not an address',
    ]);
    expect(infra.create2Deployer).toBe(A(99));
  });

  it('records addresses, the first block and the transactions; merges with an earlier run', () => {
    const first = recordDeployment(FILE, {
      create2Deployer: A(99),
      complianceRegistry: A(10),
      complianceHook: null,
      token: null,
      deployer: A(20),
      attester: A(21),
      block: 120,
      sqrtPriceX96: null,
      transactions: { complianceRegistry: '0xaa' },
    });
    expect(first.contracts.complianceRegistry).toBe(A(10));
    expect(first.contracts.complianceHook).toBeNull();
    expect(first.positionLogs).toEqual({ startBlock: 120, pageBlocks: 10_000 });
    const second = recordDeployment(first, {
      create2Deployer: A(99),
      complianceRegistry: A(10),
      complianceHook: A(11),
      token: { kind: 'test', address: A(12), name: 'Test USD Coin', decimals: 6 },
      deployer: A(20),
      attester: A(21),
      block: 130,
      sqrtPriceX96: '42',
      transactions: { complianceHook: '0xbb' },
    });
    expect(second.deployment).toEqual({
      deployer: A(20),
      attester: A(21),
      block: 120,
      sqrtPriceX96: '42',
      transactions: { complianceRegistry: '0xaa', complianceHook: '0xbb' },
    });
    expect(second.tokens.tUSDC).toEqual({
      symbol: 'tUSDC',
      name: 'Test USD Coin',
      decimals: 6,
      address: A(12),
    });
    expect(FILE.deployment).toBeUndefined(); // pure
    expect(second.deprecated).toEqual([]);

    // A newer hook version beside it: the previous hook is listed as deprecated, once.
    const update = {
      create2Deployer: A(99),
      complianceRegistry: A(10),
      complianceHook: A(0x2a80),
      token: null,
      deployer: A(20),
      attester: A(21),
      block: 140,
      sqrtPriceX96: null,
      transactions: { complianceHook: '0xcc' },
    };
    const upgraded = recordDeployment(second, update);
    expect(upgraded.contracts.complianceHook).toBe(A(0x2a80));
    expect(upgraded.deprecated).toEqual([
      expect.objectContaining({ kind: 'hook', address: A(11), replacedBy: 'complianceHook' }),
    ]);
    expect(upgraded.positionLogs!.startBlock).toBe(120); // the old pool's positions stay visible
    expect(recordDeployment(upgraded, update).deprecated).toEqual(upgraded.deprecated);
  });

  it('writes through a temporary file renamed over the old one, keeping its mode', () => {
    const path = join(dir, 'network.json');
    writeFileSync(path, '{}', { mode: 0o600 });
    writeNetworkFileAtomically(path, FILE);
    expect(readOperatorNetworkFile(path)).toEqual(FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['network.json']);
  });

  it('names the file when it cannot be read or is not a network file', () => {
    expect(() => readOperatorNetworkFile(join(dir, 'none.json'))).toThrow(
      /cannot read the network file .*none\.json/,
    );
    writeFileSync(join(dir, 'bad.json'), '{"chainId": 1}');
    expect(() => readOperatorNetworkFile(join(dir, 'bad.json'))).toThrow(
      /lacks chainId, contracts/,
    );
    expect(readFileSync(join(dir, 'bad.json'), 'utf8')).toBe('{"chainId": 1}');
  });
});
