/**
 * Issue 28 items 1-3: `npm run cli -- deploy` on a bare devnet (only the public infrastructure,
 * the stand-in for Base Sepolia). Through the real command line as an operator runs it: our
 * contracts land at their CREATE2 addresses, the network file records them, a second run sends
 * nothing; an interrupted run resumes; a wrong chain, an unfunded deployer or infrastructure
 * without code are refused before any transaction. The key never leaves its file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, getAddress, JsonRpcProvider, Wallet } from 'ethers';
import { STATE_VIEW } from '../../src/chain/abi/uniswap-v4';
import { poolIdOf } from '../../src/chain/encoding/pool-key';
import { HOOK_FLAG_MASK, HOOK_FLAGS } from '../../src/chain/deployment/deployment-constants';
import { deployCompliance } from '../../src/chain/deployment/deployment-executor';
import { writeNetworkFileAtomically } from '../../src/chain/deployment/network-file-io';
import {
  devnetPrivateKeys,
  RunningBareDevnet,
  startBareDevnet,
} from '../../src/chain/devnet/devnet';
import { NetworkFile, resolveNetworkFile } from '../../src/chain/network/network-definition';
import { deployCommand } from '../../src/cli/deploy-command';
import { ensureDistBuilt } from '../helpers/built-app-process';

const ROOT = join(__dirname, '..', '..');
const REGISTRY = [
  'function isAttester(address) view returns (bool)',
  'function owner() view returns (address)',
];
const HOOK = [
  'function owner() view returns (address)',
  'function isRouter(address) view returns (bool)',
  'function isQuoter(address) view returns (bool)',
  'function VERSION() view returns (uint8)',
  'function sanctionsOracle() view returns (address)',
  'function freezeExits() view returns (bool)',
];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node dist/cli/main.js ...` as an operator runs it (npm run cli does the same after a build). */
function cli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/cli/main.js', ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 120_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('deploy (bare devnet)', () => {
  let devnet: RunningBareDevnet;
  let provider: JsonRpcProvider;
  let dir: string;
  let pristine: string;
  // Not the embedded devnet's deployer: any funded key deploys, another key attests.
  const keys = devnetPrivateKeys(8);
  const deployer = new Wallet(keys[5]);
  const attester = new Wallet(keys[6]).address;
  let keyFile: string;

  const rpc = (method: string, params: unknown[] = []) =>
    devnet.provider.request({ method, params }) as Promise<unknown>;
  /** JSON-RPC calls the devnet served over HTTP since the last reset, by method. */
  const served = () => provider.send('devnet_rpcStats', []) as Promise<Record<string, number>>;
  const fileAt = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as NetworkFile;
  const writeFile = (name: string, file: NetworkFile) => {
    const path = join(dir, name);
    writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
    return path;
  };
  const baseArgs = (networkFile: string, key = keyFile) => [
    '--rpc',
    devnet.rpcUrl,
    '--network-file',
    networkFile,
    '--deployer-key-file',
    key,
  ];

  beforeAll(async () => {
    ensureDistBuilt();
    devnet = await startBareDevnet({ port: 0 });
    provider = new JsonRpcProvider(devnet.rpcUrl, 84532, { staticNetwork: true, batchMaxCount: 1 });
    dir = mkdtempSync(join(tmpdir(), 'deploy-e2e-'));
    keyFile = join(dir, 'deployer.key');
    writeFileSync(keyFile, `${deployer.privateKey}\n`, { mode: 0o600 });
    pristine = (await rpc('evm_snapshot')) as string;
  }, 120_000);

  beforeEach(async () => {
    // Every test starts from the bare chain; evm_revert consumes its snapshot.
    await rpc('evm_revert', [pristine]);
    pristine = (await rpc('evm_snapshot')) as string;
    await provider.send('devnet_resetRpcStats', []);
  });

  afterAll(async () => {
    provider?.destroy();
    await devnet?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('writes a bare network file: the infrastructure, with code, and our contracts null', async () => {
    const file = devnet.networkFile;
    expect(file.chainId).toBe(84532);
    expect(file.contracts.complianceRegistry).toBeNull();
    expect(file.contracts.complianceHook).toBeNull();
    expect(file.tokens.tUSDC.address).toBeNull();
    // `devnet --bare` deploys the devnet's sanctions oracle (the stand-in for Chainalysis').
    expect(await provider.getCode(file.compliance!.sanctionsOracle!)).not.toBe('0x');
    expect(file.compliance!.exitPolicy).toBe('freeze');
    expect(file.contracts.create2Deployer).toBe('0x4e59b44847b379578588920cA78FbF26c0B4956C');
    const infra = [
      ...Object.entries(file.contracts).filter(([name]) => !name.startsWith('compliance')),
      ['WETH', file.tokens.WETH.address],
    ];
    for (const [, address] of infra) expect(await provider.getCode(address!)).not.toBe('0x');
  });

  it('deploys through the command line, records it in the file, and a second run sends nothing', async () => {
    const networkFile = writeFile('network.json', devnet.networkFile);
    const first = await cli([
      'deploy',
      ...baseArgs(networkFile),
      '--attester',
      attester,
      '--test-token',
      '--initial-price',
      '3000',
      '--seed-liquidity',
    ]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Deployed on chainId 84532 .*: 18 transactions\./);
    expect(first.stdout).toMatch(/complianceHook\s+[\d,]+\s+0x[0-9a-f]{64}/);
    expect(first.stdout).toMatch(/total\s+[\d,]+\s+[\d.]+ ETH in fees/);

    const text = readFileSync(networkFile, 'utf8');
    for (const output of [first.stdout, first.stderr, text])
      expect(output.toLowerCase()).not.toContain(deployer.privateKey.slice(2).toLowerCase());
    const file = JSON.parse(text) as NetworkFile;
    const registry = file.contracts.complianceRegistry!;
    const hook = file.contracts.complianceHook!;
    const tusdc = file.tokens.tUSDC.address!;
    for (const address of [registry, hook, tusdc])
      expect(await provider.getCode(address)).not.toBe('0x');
    expect(BigInt(hook) & HOOK_FLAG_MASK).toBe(HOOK_FLAGS);
    expect(BigInt(tusdc) > BigInt(file.tokens.WETH.address!)).toBe(true);

    // Owned by the deployer, attested by the attester only (the deployer's seeding grant revoked).
    const registryContract = new Contract(registry, REGISTRY, provider);
    expect(await registryContract.owner()).toBe(deployer.address);
    expect(await registryContract.isAttester(attester)).toBe(true);
    expect(await registryContract.isAttester(deployer.address)).toBe(false);
    const hookContract = new Contract(hook, HOOK, provider);
    expect(await hookContract.owner()).toBe(deployer.address);
    // Hook v3 (v2 + per-trade authorizations): it screens against the file's sanctions oracle and
    // freezes a listed wallet's exits.
    expect(await hookContract.VERSION()).toBe(3n);
    expect(await hookContract.sanctionsOracle()).toBe(file.compliance!.sanctionsOracle);
    expect(await hookContract.freezeExits()).toBe(true);
    expect(await hookContract.isRouter(file.contracts.universalRouter)).toBe(true);
    expect(await hookContract.isRouter(file.contracts.positionManager)).toBe(true);
    expect(await hookContract.isQuoter(file.contracts.v4Quoter)).toBe(true);

    // The pool with our hook is initialized at 3000 and seeded.
    const poolId = poolIdOf({
      currency0: file.tokens.WETH.address!,
      currency1: tusdc,
      fee: file.pool.fee,
      tickSpacing: file.pool.tickSpacing,
      hooks: hook,
    });
    const stateView = new Contract(file.contracts.stateView!, STATE_VIEW.fragments, provider);
    const [sqrtPriceX96] = (await stateView.getSlot0(poolId)) as [bigint];
    expect(sqrtPriceX96).toBe(4339505179874779489431521n);
    expect(file.deployment?.sqrtPriceX96).toBe(sqrtPriceX96.toString());
    expect(await stateView.getLiquidity(poolId)).toBeGreaterThan(0n);

    // Every transaction recorded, sent by the deployer; the first one's block starts position logs.
    const record = file.deployment!;
    expect(record).toMatchObject({ deployer: deployer.address, attester });
    const hashes = Object.values(record.transactions);
    expect(Object.keys(record.transactions)).toEqual(
      expect.arrayContaining([
        'complianceRegistry',
        'complianceHook',
        'tUSDC',
        'poolInitialize',
        'seedPosition',
      ]),
    );
    expect(hashes).toHaveLength(18);
    const receipts = await Promise.all(hashes.map((hash) => provider.getTransactionReceipt(hash)));
    for (const receipt of receipts)
      expect(receipt).toMatchObject({ status: 1, from: deployer.address });
    expect(record.block).toBe(Math.min(...receipts.map((r) => r!.blockNumber)));
    expect(file.positionLogs!.startBlock).toBe(record.block);
    expect((await served()).eth_sendRawTransaction).toBe(18);

    // Again: nothing is sent, the file is untouched, and the command says so.
    await provider.send('devnet_resetRpcStats', []);
    const nonce = await provider.getTransactionCount(deployer.address);
    const again = await cli(['deploy', ...baseArgs(networkFile), '--seed-liquidity', '--json']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    const summary = JSON.parse(again.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({
      outcome: 'nothing-to-do',
      transactionsSent: 0,
      steps: [],
      attester,
      contracts: { complianceRegistry: registry, complianceHook: hook, tUSDC: tusdc },
    });
    expect(await provider.getTransactionCount(deployer.address)).toBe(nonce);
    expect((await served()).eth_sendRawTransaction).toBeUndefined();
    expect(readFileSync(networkFile, 'utf8')).toBe(text);
    const plain = await cli(['deploy', ...baseArgs(networkFile)]);
    expect(plain.stdout).toMatch(/^Nothing to do: .* no transaction sent\./);
  });

  it('issue 42: deploys the market of the file (test tokens, pools at their prices, seeds), then a pool added to the file alone; a re-run sends nothing', async () => {
    const networkFile = writeFile('market.json', devnet.networkFile);
    const deploy = async (extra: string[] = []) => {
      const run = await cli(['deploy', ...baseArgs(networkFile), '--json', ...extra]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      return JSON.parse(run.stdout) as { outcome: string; steps: Array<{ step: string }> };
    };
    // An existing deployment of the spec's pair alone.
    expect(
      (await deploy(['--attester', attester, '--test-token', '--seed-liquidity'])).outcome,
    ).toBe('deployed');

    // The file gains two test tokens (8 and 6 decimals) and a pool between tUSDC and one of them,
    // by symbol, with its price and seed: deploy adds exactly those.
    const existing = fileAt(networkFile);
    const tokens = {
      ...existing.tokens,
      tWBTC: { name: 'Test Wrapped BTC', decimals: 8, address: null, test: true },
      tEURC: { name: 'Test Euro Coin', decimals: 6, address: null, test: true },
    };
    const eurc500 = {
      id: null,
      currency0: 'tUSDC',
      currency1: 'tEURC',
      fee: 500,
      tickSpacing: 10,
      initialPrice: { tEURC: '1', tUSDC: '1.08' },
      seed: { tUSDC: '1080', tEURC: '1000' },
    };
    writeFile('market.json', { ...existing, tokens, pools: [eurc500] });
    await provider.send('devnet_resetRpcStats', []);
    const market = await deploy(['--seed-liquidity']);
    const kinds = market.steps.map((x) => x.step.split(':')[0]);
    expect(kinds.filter((k) => k === 'marketToken')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'marketPool')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'marketSeed')).toHaveLength(1);
    // The spec's contracts and pool are not touched.
    expect(
      kinds.filter(
        (k) =>
          !k.startsWith('market') &&
          k !== 'seedSession' &&
          !k.startsWith('seedAttester') &&
          k !== 'deployerAttesterRevoke',
      ),
    ).toEqual([]);
    const recorded = fileAt(networkFile);
    expect(recorded.tokens.tWBTC.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(recorded.pools).toHaveLength(1);
    const [pool] = recorded.pools!;
    expect(BigInt(pool.currency0) < BigInt(pool.currency1)).toBe(true);
    const stateView = new Contract(recorded.contracts.stateView!, STATE_VIEW.fragments, provider);
    expect(((await stateView.getSlot0(pool.id)) as [bigint])[0] > 0n).toBe(true);
    expect((await stateView.getLiquidity(pool.id)) as bigint).toBeGreaterThan(0n);
    // The service reads the file written: the spec pool first, then the market's.
    expect(resolveNetworkFile(recorded).pools.map((p) => p.id)).toEqual([
      poolIdOf({
        currency0: recorded.tokens.WETH.address!,
        currency1: recorded.tokens.tUSDC.address!,
        fee: 3000,
        tickSpacing: 60,
        hooks: recorded.contracts.complianceHook!,
      }),
      pool.id,
    ]);

    // A second fee tier added to the file: deploy creates just that pool (one transaction).
    writeFile('market.json', {
      ...recorded,
      pools: [
        ...recorded.pools!,
        {
          id: null,
          currency0: 'tUSDC',
          currency1: 'tEURC',
          fee: 100,
          tickSpacing: 1,
          initialPrice: { tEURC: '1', tUSDC: '1.08' },
        },
      ],
    });
    await provider.send('devnet_resetRpcStats', []);
    const added = await deploy();
    expect(added.steps.map((x) => x.step)).toEqual([
      `marketPool:${fileAt(networkFile).pools![1].id}`,
    ]);
    expect((await served()).eth_sendRawTransaction).toBe(1);

    // Again: nothing is sent.
    await provider.send('devnet_resetRpcStats', []);
    const again = await deploy(['--seed-liquidity']);
    expect(again).toMatchObject({ outcome: 'nothing-to-do', steps: [] });
    expect((await served()).eth_sendRawTransaction).toBeUndefined();
  });

  it('resumes an interrupted deployment: only the missing steps, every transaction recorded', async () => {
    const networkFile = writeFile('interrupted.json', devnet.networkFile);
    let sent = 0;
    await expect(
      deployCompliance({
        rpc: devnet.provider,
        file: devnet.networkFile,
        deployer,
        pollIntervalMs: 0,
        onProgress: (progress) => {
          writeNetworkFileAtomically(networkFile, progress);
          if (++sent === 3) throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    const interrupted = fileAt(networkFile);
    expect(Object.keys(interrupted.deployment!.transactions)).toEqual([
      'complianceRegistry',
      'complianceHook',
      'tUSDC',
    ]);

    const resumed = await deployCommand(['--json', ...baseArgs(networkFile)]);
    expect(resumed.exitCode).toBe(0);
    const summary = JSON.parse(resumed.output) as {
      outcome: string;
      steps: Array<{ step: string }>;
    };
    expect(summary.outcome).toBe('deployed');
    expect(summary.steps.map((s) => s.step)).toEqual([
      'hookRouterUniversalRouter',
      'hookRouterPositionManager',
      'hookQuoter',
      // Hook v3 (issue 54): the authorizer it accepts, and the attester as its enforcer.
      expect.stringMatching(/^hookAuthorizer:0x[0-9a-fA-F]{40}$/),
      'hookEnforcer',
      'poolInitialize',
    ]);
    const file = fileAt(networkFile);
    expect(Object.keys(file.deployment!.transactions)).toHaveLength(9);
    expect(file.deployment!.block).toBe(interrupted.deployment!.block);
    expect(BigInt(file.contracts.complianceHook!) & HOOK_FLAG_MASK).toBe(HOOK_FLAGS);
  });

  it('rotates the attester: the new one added, the previous one revoked, nothing redeployed', async () => {
    const networkFile = writeFile('rotation.json', devnet.networkFile);
    const first = await deployCommand(baseArgs(networkFile));
    expect(first.exitCode).toBe(0);
    const deployed = fileAt(networkFile);
    expect(deployed.deployment!.attester).toBe(deployer.address);

    const rotated = await deployCommand([
      '--json',
      ...baseArgs(networkFile),
      '--attester',
      attester,
    ]);
    expect(rotated.exitCode).toBe(0);
    const summary = JSON.parse(rotated.output) as { steps: Array<{ step: string }> };
    expect(summary.steps.map((s) => s.step)).toEqual([
      'registryAttester',
      // The hook v3's enforcer (who flags wallets that need an authorization) is the attester.
      'hookEnforcer',
      'deployerAttesterRevoke',
    ]);
    const file = fileAt(networkFile);
    expect(file.contracts).toEqual(deployed.contracts);
    expect(file.deployment!.attester).toBe(attester);
    const registry = new Contract(file.contracts.complianceRegistry!, REGISTRY, provider);
    expect(await registry.isAttester(attester)).toBe(true);
    expect(await registry.isAttester(deployer.address)).toBe(false);
  });

  describe('refuses before sending anything', () => {
    const refusal = async (networkFile: string, key = keyFile) => {
      const before = readFileSync(networkFile, 'utf8');
      const result = await deployCommand(baseArgs(networkFile, key));
      expect(result.exitCode).toBe(1);
      expect(result.output).toMatch(/^Refused: nothing was sent/);
      expect(readFileSync(networkFile, 'utf8')).toBe(before);
      const stats = await served();
      expect(stats.eth_sendRawTransaction).toBeUndefined();
      expect(stats.eth_estimateGas).toBeUndefined();
      return result.output;
    };

    it('a network file of another chain', async () => {
      const output = await refusal(
        writeFile('mainnet.json', { ...devnet.networkFile, chainId: 8453 }),
      );
      expect(output).toContain('the RPC serves chainId 84532, the network file says 8453');
    });

    it('a deployer that cannot pay', async () => {
      const poor = Wallet.createRandom();
      const poorKey = join(dir, 'poor.key');
      writeFileSync(poorKey, poor.privateKey, { mode: 0o600 });
      const output = await refusal(writeFile('network-poor.json', devnet.networkFile), poorKey);
      expect(output).toMatch(
        new RegExp(
          `the deployer ${poor.address} holds 0 wei; the 9 remaining steps need about \\d+ wei`,
        ),
      );
      expect(output).toContain('complianceRegistry: deploy the ComplianceRegistry');
      expect(output).not.toContain(poor.privateKey.slice(2));
    });

    it('infrastructure without code', async () => {
      const file = structuredClone(devnet.networkFile);
      file.contracts.poolManager = getAddress('0x00000000000000000000000000000000000c0de1');
      file.contracts.v4Quoter = getAddress('0x00000000000000000000000000000000000c0de2');
      const output = await refusal(writeFile('no-code.json', file));
      expect(output).toContain(
        `contracts.poolManager ${file.contracts.poolManager} has no code on this chain`,
      );
      expect(output).toContain(
        `contracts.v4Quoter ${file.contracts.v4Quoter} has no code on this chain`,
      );
    });
  });
});
