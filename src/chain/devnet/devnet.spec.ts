import { Contract, Interface, JsonRpcProvider } from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import { devnetNetworkFile } from '../network/network-definition';
import * as C from './constants';
import { RunningDevnet, startDevnet } from './devnet';
import { isqrt, sqrtPriceX96FromRatio } from './pool-math';

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

  it('snapshots and reverts in milliseconds', async () => {
    const started = Date.now();
    const id = await provider.send('evm_snapshot', []);
    await provider.send('evm_mine', []);
    expect(await provider.send('evm_revert', [id])).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('pool math', () => {
  it('computes the initial sqrt price of 1 WETH = 3000 tUSDC', () => {
    const sqrtPriceX96 = sqrtPriceX96FromRatio(3000n * 10n ** 6n, 10n ** 18n);
    const price = Number((sqrtPriceX96 * sqrtPriceX96 * 10n ** 12n) >> 192n);
    expect(price).toBeGreaterThanOrEqual(2999);
    expect(price).toBeLessThanOrEqual(3000);
    expect(isqrt(10n ** 40n)).toBe(10n ** 20n);
    expect(isqrt(10n ** 40n - 1n)).toBe(10n ** 20n - 1n);
  });
});
