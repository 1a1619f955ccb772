/**
 * Deploys the whole devnet world onto a fresh local EVM: Permit2, Uniswap v4 (official npm
 * bytecode), Multicall3, WETH, tUSDC, ComplianceRegistry and ComplianceHook; initializes and
 * seeds the WETH/tUSDC pool and funds the development accounts. Every address is deterministic:
 * same deployer, same nonces, CREATE2 salts derived from fixed inputs.
 */
import {
  AbiCoder,
  Interface,
  encodeBytes32String,
  InterfaceAbi,
  getAddress,
  getCreate2Address,
  keccak256,
  toBeHex,
  zeroPadValue,
} from 'ethers';
import {
  loadOwnArtifact,
  loadPermit2RuntimeCode,
  loadUniswapArtifact,
  LoadedArtifact,
} from './artifacts';
import { PERMIT2 } from '../abi/permit2';
import { POSITION_MANAGER } from '../abi/uniswap-v4';
import * as C from './constants';
import { fullRangeLiquidityForAmounts, fullRangeTicks, sqrtPriceX96FromRatio } from './pool-math';
import type { DevnetDeployment } from '../network/network.types';

export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

const coder = AbiCoder.defaultAbiCoder();
const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_UINT160 = (1n << 160n) - 1n;
const MAX_UINT48 = (1n << 48n) - 1n;

class Deployer {
  constructor(private readonly rpc: Eip1193) {}

  async send(
    from: string,
    to: string | undefined,
    data: string,
    value = 0n,
  ): Promise<{ contractAddress: string | null }> {
    const hash = (await this.rpc.request({
      method: 'eth_sendTransaction',
      params: [{ from, to, data, value: toBeHex(value) }],
    })) as string;
    // Automine: the receipt exists as soon as eth_sendTransaction returns.
    const receipt = (await this.rpc.request({
      method: 'eth_getTransactionReceipt',
      params: [hash],
    })) as {
      status: string;
      contractAddress: string | null;
    };
    if (receipt.status !== '0x1') throw new Error(`devnet deployment transaction ${hash} reverted`);
    return receipt;
  }

  async deploy(from: string, artifact: LoadedArtifact, args: unknown[] = []): Promise<string> {
    const data = new Interface(artifact.abi as InterfaceAbi).encodeDeploy(args);
    const { contractAddress } = await this.send(from, undefined, artifact.bytecode + data.slice(2));
    return getAddress(contractAddress!);
  }

  async call(
    from: string,
    to: string,
    abi: InterfaceAbi,
    fn: string,
    args: unknown[],
    value = 0n,
  ): Promise<void> {
    await this.send(from, to, new Interface(abi).encodeFunctionData(fn, args), value);
  }

  async setCode(address: string, code: string): Promise<void> {
    await this.rpc.request({ method: 'hardhat_setCode', params: [address, code] });
  }
}

function initCode(artifact: LoadedArtifact, args: unknown[]): string {
  return (
    artifact.bytecode + new Interface(artifact.abi as InterfaceAbi).encodeDeploy(args).slice(2)
  );
}

function saltOf(n: number): string {
  return zeroPadValue(toBeHex(n), 32);
}

/** First salt whose CREATE2 address satisfies `accept` (deterministic: always scans from 0). */
export function mineSalt(
  code: string,
  accept: (address: string) => boolean,
  limit = 1_000_000,
): { salt: string; address: string } {
  const codeHash = keccak256(code);
  for (let i = 0; i < limit; i++) {
    const salt = saltOf(i);
    const address = getCreate2Address(C.CREATE2_FACTORY_ADDRESS, salt, codeHash);
    if (accept(address)) return { salt, address };
  }
  throw new Error('no CREATE2 salt found');
}

export function hasHookFlags(address: string): boolean {
  return (BigInt(address) & C.HOOK_FLAG_MASK) === C.HOOK_FLAGS;
}

async function create2(
  d: Deployer,
  from: string,
  salt: string,
  code: string,
  expected: string,
): Promise<string> {
  await d.send(from, C.CREATE2_FACTORY_ADDRESS, salt + code.slice(2));
  return getAddress(expected);
}

export async function deployDevnet(rpc: Eip1193, accounts: string[]): Promise<DevnetDeployment> {
  const d = new Deployer(rpc);
  const deployer = getAddress(accounts[0]);
  const seeder = getAddress(accounts[C.SEEDER_ACCOUNT_INDEX]);
  const funded = accounts.slice(0, C.FUNDED_ACCOUNT_COUNT).map((a) => getAddress(a));

  await d.setCode(C.PERMIT2_ADDRESS, loadPermit2RuntimeCode());
  await d.setCode(C.CREATE2_FACTORY_ADDRESS, C.CREATE2_FACTORY_RUNTIME);
  // Our Multicall3 has no constructor state and no immutables: its runtime code is all it needs.
  await d.setCode(C.MULTICALL3_ADDRESS, loadOwnArtifact('Multicall3').deployedBytecode!);

  const poolManager = await d.deploy(deployer, loadUniswapArtifact('PoolManager'), [deployer]);

  // Spec §1: WETH must be token0. WETH takes salt 0; tUSDC takes the first salt whose address
  // sorts above WETH's, so the ordering holds by construction, whatever the bytecode.
  const wethArtifact = loadUniswapArtifact('WETH');
  const wethCode = initCode(wethArtifact, []);
  const wethMined = mineSalt(wethCode, () => true);
  const weth = await create2(d, deployer, wethMined.salt, wethCode, wethMined.address);
  const tusdcArtifact = loadOwnArtifact('TestUSDC');
  const tusdcCode = initCode(tusdcArtifact, [deployer]);
  const tusdcMined = mineSalt(tusdcCode, (a) => BigInt(a) > BigInt(weth));
  const tusdc = await create2(d, deployer, tusdcMined.salt, tusdcCode, tusdcMined.address);

  const descriptor = await d.deploy(deployer, loadUniswapArtifact('PositionDescriptor'), [
    poolManager,
    weth,
    encodeBytes32String('ETH'), // native currency label shown in position NFTs
  ]);
  const positionManager = await d.deploy(deployer, loadUniswapArtifact('PositionManager'), [
    poolManager,
    C.PERMIT2_ADDRESS,
    C.UNSUBSCRIBE_GAS_LIMIT,
    descriptor,
    weth,
  ]);
  const zero = '0x0000000000000000000000000000000000000000';
  const zeroHash = `0x${'00'.repeat(32)}`;
  // RouterParameters: only v4 is wired; v2/v3/spoke fields stay zero (no such deployments here).
  const universalRouter = await d.deploy(deployer, loadUniswapArtifact('UniversalRouter'), [
    [
      C.PERMIT2_ADDRESS,
      weth,
      zero,
      zero,
      zeroHash,
      zeroHash,
      poolManager,
      zero,
      positionManager,
      zero,
    ],
  ]);
  const stateView = await d.deploy(deployer, loadUniswapArtifact('StateView'), [poolManager]);
  const v4Quoter = await d.deploy(deployer, loadUniswapArtifact('V4Quoter'), [poolManager]);

  const registryArtifact = loadOwnArtifact('ComplianceRegistry');
  const complianceRegistry = await d.deploy(deployer, registryArtifact, [deployer, deployer]);
  const hookArtifact = loadOwnArtifact('ComplianceHook');
  const hookCode = initCode(hookArtifact, [poolManager, complianceRegistry, deployer]);
  const hookMined = mineSalt(hookCode, hasHookFlags);
  const complianceHook = await create2(d, deployer, hookMined.salt, hookCode, hookMined.address);
  const hookAbi = hookArtifact.abi as InterfaceAbi;
  await d.call(deployer, complianceHook, hookAbi, 'setRouter', [universalRouter, true]);
  await d.call(deployer, complianceHook, hookAbi, 'setRouter', [positionManager, true]);
  await d.call(deployer, complianceHook, hookAbi, 'setQuoter', [v4Quoter, true]);

  const poolKey = {
    currency0: weth,
    currency1: tusdc,
    fee: C.POOL_FEE,
    tickSpacing: C.POOL_TICK_SPACING,
    hooks: complianceHook,
  };
  const sqrtPriceX96 = sqrtPriceX96FromRatio(C.INITIAL_TUSDC_PER_WETH * 10n ** 6n, 10n ** 18n);
  const keyTuple = [weth, tusdc, C.POOL_FEE, C.POOL_TICK_SPACING, complianceHook];
  await d.call(
    deployer,
    poolManager,
    loadUniswapArtifact('PoolManager').abi as InterfaceAbi,
    'initialize',
    [keyTuple, sqrtPriceX96],
  );

  const wethAbi = wethArtifact.abi as InterfaceAbi;
  const tusdcAbi = tusdcArtifact.abi as InterfaceAbi;
  // The seeding LP passes through the hook like anyone else: it needs a session.
  const farFuture = 2n ** 40n;
  await d.call(deployer, complianceRegistry, registryArtifact.abi as InterfaceAbi, 'activate', [
    seeder,
    farFuture,
  ]);
  await d.call(seeder, weth, wethAbi, 'deposit', [], C.SEED_WETH_WEI);
  await d.call(deployer, tusdc, tusdcAbi, 'mint', [seeder, C.SEED_TUSDC_UNITS]);
  for (const token of [weth, tusdc]) {
    await d.call(seeder, token, wethAbi, 'approve', [C.PERMIT2_ADDRESS, MAX_UINT256]);
    await d.call(seeder, C.PERMIT2_ADDRESS, PERMIT2.fragments, 'approve', [
      token,
      positionManager,
      MAX_UINT160,
      MAX_UINT48,
    ]);
  }
  const liquidity = fullRangeLiquidityForAmounts(sqrtPriceX96, C.SEED_WETH_WEI, C.SEED_TUSDC_UNITS);
  const { tickLower, tickUpper } = fullRangeTicks(C.POOL_TICK_SPACING);
  const mintParams = coder.encode(
    [
      'tuple(address,address,uint24,int24,address)',
      'int24',
      'int24',
      'uint256',
      'uint128',
      'uint128',
      'address',
      'bytes',
    ],
    [keyTuple, tickLower, tickUpper, liquidity, C.SEED_WETH_WEI, C.SEED_TUSDC_UNITS, seeder, '0x'],
  );
  const settleParams = coder.encode(['address', 'address'], [weth, tusdc]);
  const unlockData = coder.encode(['bytes', 'bytes[]'], ['0x020d', [mintParams, settleParams]]); // MINT_POSITION, SETTLE_PAIR
  const modify = [unlockData, farFuture];
  await d.call(seeder, positionManager, POSITION_MANAGER.fragments, 'modifyLiquidities', modify);

  for (const account of funded) {
    await d.call(account, weth, wethAbi, 'deposit', [], C.FUND_WETH_WEI);
    await d.call(deployer, tusdc, tusdcAbi, 'mint', [account, C.FUND_TUSDC_UNITS]);
  }

  return {
    chainId: C.DEVNET_CHAIN_ID,
    contracts: {
      poolManager,
      positionManager,
      positionDescriptor: descriptor,
      universalRouter,
      stateView,
      v4Quoter,
      permit2: getAddress(C.PERMIT2_ADDRESS),
      multicall3: getAddress(C.MULTICALL3_ADDRESS),
      complianceRegistry,
      complianceHook,
    },
    tokens: { WETH: weth, tUSDC: tusdc },
    pool: { ...poolKey, sqrtPriceX96: sqrtPriceX96.toString(), liquidity: liquidity.toString() },
    accounts: { deployer, attester: deployer, seeder, funded },
  };
}
