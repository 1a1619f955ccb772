import { getSingletonFactoryInfo } from '@safe-global/safe-singleton-factory';
import {
  Contract,
  getCreateAddress,
  Interface,
  keccak256,
  JsonRpcProvider,
  Transaction,
  Wallet,
} from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import { CREATE2_DEPLOYER_ADDRESS } from '../deployment/deployment-constants';
import { deployCompliance } from '../deployment/deployment-executor';
import { devnetNetworkFile, NetworkFile } from '../network/network-definition';
import { canonicalSafeDeployment, DEVNET_SAFE_DEPLOYMENTS } from '../safe/safe-contracts';
import * as C from './constants';
import { devnetPrivateKeys, RunningDevnet, startDevnet } from './devnet';

const MULTICALL = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[])',
  'function getEthBalance(address) view returns (uint256)',
  'function getChainId() view returns (uint256)',
]);
const ERC20 = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function decimals() view returns (uint8)',
]);

describe('devnet', () => {
  let devnet: RunningDevnet;
  let provider: JsonRpcProvider;

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0 });
    provider = new JsonRpcProvider(devnet.rpcUrl, C.DEVNET_CHAIN_ID, { staticNetwork: true });
  }, 60_000);
  afterAll(async () => {
    provider?.destroy();
    await devnet?.close();
  });

  it('deploys to exactly the addresses of src/config/networks/devnet.json (deterministic)', () => {
    expect(JSON.parse(JSON.stringify(devnetNetworkFile(devnet.deployment)))).toEqual(devnetFile);
  });

  it('serves chainId 84532 with WETH as token0 (WETH < tUSDC) and the hook in the pool key', async () => {
    expect(Number((await provider.send('eth_chainId', [])) as string)).toBe(84532);
    const { WETH, tUSDC } = devnet.deployment.tokens;
    expect(BigInt(WETH) < BigInt(tUSDC)).toBe(true);
    expect(devnet.deployment.pool).toMatchObject({
      currency0: WETH,
      currency1: tUSDC,
      fee: 3000,
      tickSpacing: 60,
      hooks: devnet.deployment.contracts.complianceHook,
    });
  });

  it('funds the 10 development accounts with ETH, WETH and tUSDC, without sessions', async () => {
    const { WETH, tUSDC } = devnet.deployment.tokens;
    const registry = new Contract(
      devnet.deployment.contracts.complianceRegistry,
      ['function isActive(address) view returns (bool)'],
      provider,
    );
    expect(await new Contract(tUSDC, ERC20, provider).decimals()).toBe(6n);
    for (const account of devnet.deployment.accounts.funded) {
      expect(await provider.getBalance(account)).toBeGreaterThan(9_000n * 10n ** 18n);
      expect(await new Contract(WETH, ERC20, provider).balanceOf(account)).toBe(C.FUND_WETH_WEI);
      expect(await new Contract(tUSDC, ERC20, provider).balanceOf(account)).toBe(
        C.FUND_TUSDC_UNITS,
      );
      expect(await registry.isActive(account)).toBe(false);
    }
  });

  it('answers Multicall3 aggregate3 (with allowFailure) and getEthBalance at the canonical address', async () => {
    const account = devnet.deployment.accounts.funded[1];
    const data = MULTICALL.encodeFunctionData('aggregate3', [
      [
        [C.MULTICALL3_ADDRESS, false, MULTICALL.encodeFunctionData('getEthBalance', [account])],
        [C.MULTICALL3_ADDRESS, false, MULTICALL.encodeFunctionData('getChainId', [])],
        [devnet.deployment.tokens.WETH, true, '0xdeadbeef'],
      ],
    ]);
    const [results] = MULTICALL.decodeFunctionResult(
      'aggregate3',
      await provider.call({ to: C.MULTICALL3_ADDRESS, data }),
    );
    expect(BigInt(results[0][1])).toBe(await provider.getBalance(account));
    expect(BigInt(results[1][1])).toBe(84532n);
    expect(results[2][0]).toBe(false);
  });

  it('installs the canonical CREATE2 deployer through its presigned transaction', async () => {
    // Its runtime code, as on every chain (github.com/Arachnid/deterministic-deployment-proxy).
    expect(await provider.getCode(CREATE2_DEPLOYER_ADDRESS)).toBe(
      '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3',
    );
    expect(await provider.getTransactionCount(C.CREATE2_DEPLOYER_SIGNER)).toBe(1);
  });

  it('deployed our contracts with the deploy executor: running it again sends nothing', async () => {
    const deployer = new Wallet(devnetPrivateKeys(1)[0]);
    const nonce = await provider.getTransactionCount(deployer.address);
    const result = await deployCompliance({
      rpc: devnet.provider,
      file: devnetFile as NetworkFile,
      deployer,
      seed: {},
    });
    expect(result.problems).toEqual([]);
    expect(result.outcome).toBe('nothing-to-do');
    expect(result.executed).toEqual([]);
    expect(result.pool!.liquidity.toString()).toBe(devnet.deployment.pool.liquidity);
    expect(await provider.getTransactionCount(deployer.address)).toBe(nonce);
  });

  it("places Safe v1.4.1 at its canonical addresses through Safe's singleton factory, and no development account paid", async () => {
    const factory = getSingletonFactoryInfo(C.DEVNET_CHAIN_ID)!;
    // Its presigned installation, then the deployments it sent, impersonated.
    expect(await provider.getTransactionCount(factory.signerAddress)).toBe(
      1 + DEVNET_SAFE_DEPLOYMENTS.length,
    );
    expect(await provider.getCode(factory.address)).not.toBe('0x');
    for (const [name] of DEVNET_SAFE_DEPLOYMENTS) {
      const { address, codeHash } = canonicalSafeDeployment(name);
      expect({ name, codeHash: keccak256(await provider.getCode(address)) }).toEqual({
        name,
        codeHash,
      });
    }
  });

  it('snapshots and reverts in milliseconds', async () => {
    const started = Date.now();
    const id = await provider.send('evm_snapshot', []);
    await provider.send('evm_mine', []);
    expect(await provider.send('evm_revert', [id])).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('the CREATE2 deployer installation', () => {
  it("is Arachnid's keyless transaction: its signer's first contract is the canonical address", () => {
    const tx = Transaction.from(C.CREATE2_DEPLOYER_TRANSACTION);
    expect(tx.from).toBe(C.CREATE2_DEPLOYER_SIGNER);
    expect(tx.chainId).toBe(0n); // pre-EIP-155: valid on every chain
    expect(tx.gasPrice! * tx.gasLimit).toBe(C.CREATE2_DEPLOYER_FUNDING_WEI);
    expect(getCreateAddress({ from: tx.from!, nonce: 0 })).toBe(CREATE2_DEPLOYER_ADDRESS);
  });
});
