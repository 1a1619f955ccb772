/**
 * Builds the devnet world on a fresh local EVM in two parts:
 *
 *  (a) deployInfrastructure: what a real network already has: Permit2, Multicall3, the canonical
 *      CREATE2 deployer (installed by its presigned keyless transaction, as on any chain), WETH,
 *      PoolManager, PositionManager + descriptor, UniversalRouter, StateView, V4Quoter, Safe
 *      v1.4.1 (devnet-safe.ts). This is all `npm run devnet -- --bare` runs.
 *  (b) deployCompliance (src/chain/deployment): OUR deployment, the very code `npm run cli --
 *      deploy` runs against Base Sepolia, signed with the deployer's key.
 *
 * then funds the development accounts. Every address is deterministic: same deployer, same
 * nonces, CREATE2 salts derived from fixed inputs.
 */
import { encodeBytes32String, getAddress, Interface, InterfaceAbi, Wallet } from 'ethers';
import { mineSalt } from '../deployment/create2-addresses';
import { CREATE2_DEPLOYER_ADDRESS, CURRENT_HOOK_VERSION } from '../deployment/deployment-constants';
import { deployCompliance } from '../deployment/deployment-executor';
import { Eip1193 } from '../deployment/deployment-rpc';
import {
  DEFAULT_EXIT_POLICY,
  DEPRECATED_ITEMS,
  DEFAULT_POSITION_LOGS,
} from '../network/network-definition';
import type { NetworkFile } from '../network/network-definition';
import type { DevnetDeployment } from '../network/network.types';
import {
  loadOwnArtifact,
  loadPermit2RuntimeCode,
  loadUniswapArtifact,
  LoadedArtifact,
} from './artifacts';
import * as C from './constants';
import { DevnetEas, deployEas, devnetComplianceSection } from './devnet-eas';
import { deploySafe } from './devnet-safe';
import type { SafeContracts } from '../safe/safe-contracts';

export type { Eip1193 };

/** The devnet's public infrastructure: the part of a network file that (a) fills in. */
export interface DevnetInfrastructure {
  chainId: number;
  contracts: {
    poolManager: string;
    positionManager: string;
    positionDescriptor: string;
    universalRouter: string;
    stateView: string;
    v4Quoter: string;
    permit2: string;
    multicall3: string;
    create2Deployer: string;
  };
  weth: string;
  /** The devnet's SanctionsList stand-in (owner: the deployer; `npm run cli -- sanctions`). */
  sanctionsOracle: string;
  accounts: { deployer: string; seeder: string; funded: string[] };
  /** EAS predeploys, the indexer, the test attester and its two schemas. */
  attestations: DevnetEas;
  /** Safe v1.4.1 at its canonical addresses (devnet-safe.ts). */
  safe: SafeContracts;
}

export class Deployer {
  constructor(private readonly rpc: Eip1193) {}

  /** An unlocked devnet account sends: the infrastructure is not ours to sign for. */
  async send(
    from: string,
    to: string | undefined,
    data: string,
    value = 0n,
  ): Promise<string | null> {
    const hash = (await this.rpc.request({
      method: 'eth_sendTransaction',
      params: [{ from, to, data, value: `0x${value.toString(16)}` }],
    })) as string;
    return this.receipt(hash);
  }

  async sendRaw(raw: string): Promise<void> {
    await this.receipt(
      (await this.rpc.request({ method: 'eth_sendRawTransaction', params: [raw] })) as string,
    );
  }

  /** Automine: the receipt exists as soon as the transaction is accepted. */
  private async receipt(hash: string): Promise<string | null> {
    const receipt = (await this.rpc.request({
      method: 'eth_getTransactionReceipt',
      params: [hash],
    })) as { status: string; contractAddress: string | null };
    if (receipt.status !== '0x1') throw new Error(`devnet deployment transaction ${hash} reverted`);
    return receipt.contractAddress;
  }

  async deploy(from: string, artifact: LoadedArtifact, args: unknown[] = []): Promise<string> {
    const data = new Interface(artifact.abi as InterfaceAbi).encodeDeploy(args);
    return getAddress((await this.send(from, undefined, artifact.bytecode + data.slice(2)))!);
  }

  async call(from: string, to: string, abi: InterfaceAbi, fn: string, args: unknown[], value = 0n) {
    await this.send(from, to, new Interface(abi).encodeFunctionData(fn, args), value);
  }

  async setCode(address: string, code: string): Promise<void> {
    await this.rpc.request({ method: 'hardhat_setCode', params: [address, code] });
  }
}

/** (a): the public infrastructure, as a real network has it. */
export async function deployInfrastructure(
  rpc: Eip1193,
  accounts: string[],
): Promise<DevnetInfrastructure> {
  const d = new Deployer(rpc);
  const deployer = getAddress(accounts[0]);
  // Permit2 and Multicall3 live at addresses of their own deployers' keys: their runtime code is
  // all they need (no constructor state, Permit2's immutables are chain-independent but its
  // domain separator is recomputed when the chain id differs from the cached one).
  await d.setCode(C.PERMIT2_ADDRESS, loadPermit2RuntimeCode());
  await d.setCode(C.MULTICALL3_ADDRESS, loadOwnArtifact('Multicall3').deployedBytecode!);

  // Deployer nonce 0.
  const poolManager = await d.deploy(deployer, loadUniswapArtifact('PoolManager'), [deployer]);
  // Nonce 1 funds the CREATE2 deployer's one-time signer; its presigned transaction (no chain id,
  // no key anyone holds) puts the deployer at 0x4e59...956C on any EVM chain.
  await d.send(deployer, C.CREATE2_DEPLOYER_SIGNER, '0x', C.CREATE2_DEPLOYER_FUNDING_WEI);
  await d.sendRaw(C.CREATE2_DEPLOYER_TRANSACTION);
  // Nonce 2: WETH through the CREATE2 deployer, salt 0.
  const wethArtifact = loadUniswapArtifact('WETH');
  const wethCode = wethArtifact.bytecode;
  const wethSalt = mineSalt(CREATE2_DEPLOYER_ADDRESS, wethCode, () => true);
  await d.send(deployer, CREATE2_DEPLOYER_ADDRESS, wethSalt.salt + wethCode.slice(2));
  const weth = wethSalt.address;

  // Nonces 3..7.
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
  // Nonce 8: Chainalysis' oracle stands in as a contract whose owner lists addresses.
  const sanctionsOracle = await d.deploy(deployer, loadOwnArtifact('SanctionsOracle'), [deployer]);
  // Safe through its singleton factory, sent by the factory's signer: no nonce above moves.
  const safe = await deploySafe(rpc, d, C.DEVNET_CHAIN_ID);

  const funded = accounts.slice(0, C.FUNDED_ACCOUNT_COUNT).map((a) => getAddress(a));
  for (const account of funded)
    await d.call(account, weth, wethArtifact.abi as InterfaceAbi, 'deposit', [], C.FUND_WETH_WEI);
  const attestations = await deployEas(rpc, d, accounts);

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
      create2Deployer: getAddress(CREATE2_DEPLOYER_ADDRESS),
    },
    weth,
    sanctionsOracle,
    accounts: {
      deployer,
      seeder: getAddress(accounts[C.SEEDER_ACCOUNT_INDEX]),
      funded,
    },
    attestations,
    safe,
  };
}

/**
 * The network file of (a) alone: our contracts and token null, for `deploy` to fill in. The bare
 * devnet's file (`npm run devnet -- --bare`, the stand-in for Base Sepolia) names the spec's pair
 * alone; the embedded devnet's adds its market (test tokens tWBTC and tEURC, their pools).
 */
export function infrastructureNetworkFile(
  infra: DevnetInfrastructure,
  name = 'devnet-bare',
  opts: { market: boolean } = { market: false },
): NetworkFile {
  const file: NetworkFile = {
    name,
    chainId: infra.chainId,
    notes: [
      'Written by `npm run devnet -- --bare`: the public infrastructure only. `npm run cli -- deploy` fills in our contracts and token.',
    ],
    contracts: { ...infra.contracts, complianceRegistry: null, complianceHook: null },
    tokens: {
      WETH: { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, address: infra.weth },
      tUSDC: { symbol: 'tUSDC', name: 'Test USD Coin', decimals: 6, address: null },
    },
    pool: { fee: C.POOL_FEE, tickSpacing: C.POOL_TICK_SPACING },
    positionLogs: DEFAULT_POSITION_LOGS,
    deprecated: DEPRECATED_ITEMS,
    compliance: {
      sanctionsOracle: infra.sanctionsOracle,
      exitPolicy: DEFAULT_EXIT_POLICY,
      ...devnetComplianceSection(infra.attestations),
    },
    deployment: null,
  };
  return opts.market ? withDevnetMarket(file) : file;
}

/** The embedded devnet's market added to a file: its test tokens (address null) and pools. */
export function withDevnetMarket(file: NetworkFile): NetworkFile {
  const tokens = Object.assign({}, file.tokens);
  for (const t of Object.values(C.MARKET_TOKENS))
    tokens[t.symbol] = {
      symbol: t.symbol,
      name: t.name,
      decimals: t.decimals,
      address: null,
      test: true,
    };
  return Object.assign({}, file, { tokens, pools: structuredClone(C.MARKET_POOLS) });
}

/** (a) + (b) + funded development accounts: the embedded devnet. */
export async function deployDevnet(
  rpc: Eip1193,
  accounts: string[],
  privateKeys: string[],
): Promise<DevnetDeployment> {
  const infra = await deployInfrastructure(rpc, accounts);
  const { deployer, seeder, funded } = infra.accounts;
  const result = await deployCompliance({
    rpc,
    file: infrastructureNetworkFile(infra, 'devnet', { market: true }),
    deployer: new Wallet(privateKeys[0]),
    seeder: new Wallet(privateKeys[C.SEEDER_ACCOUNT_INDEX]),
    attester: deployer,
    token: { kind: 'test' },
    initialPrice: C.INITIAL_TUSDC_PER_WETH.toString(),
    seed: {
      weth: C.SEED_WETH,
      token: C.SEED_TUSDC,
      sessionSeconds: C.SEED_SESSION_SECONDS,
    },
    pollIntervalMs: 0,
  });
  if (result.outcome !== 'deployed')
    throw new Error(`devnet deployment ${result.outcome}: ${result.problems.join('; ')}`);
  const target = result.target!;
  const tusdc = target.token.address;

  const d = new Deployer(rpc);
  const tusdcAbi = loadOwnArtifact('TestUSDC').abi as InterfaceAbi;
  for (const account of funded)
    await d.call(deployer, tusdc, tusdcAbi, 'mint', [account, C.FUND_TUSDC_UNITS]);
  const tokens = Object.fromEntries(
    Object.values(target.markets.tokens).map((t) => [t.symbol, t.address]),
  );
  const testTokenAbi = loadOwnArtifact('TestToken').abi as InterfaceAbi;
  for (const [symbol, units] of Object.entries(C.FUND_MARKET_UNITS))
    for (const account of funded)
      await d.call(deployer, tokens[symbol], testTokenAbi, 'mint', [account, units]);

  const { complianceRegistry, complianceHook } = target.contracts;
  const sqrtPriceX96 = result.pool!.sqrtPriceX96;
  return {
    chainId: C.DEVNET_CHAIN_ID,
    contracts: {
      poolManager: infra.contracts.poolManager,
      positionManager: infra.contracts.positionManager,
      positionDescriptor: infra.contracts.positionDescriptor,
      universalRouter: infra.contracts.universalRouter,
      stateView: infra.contracts.stateView,
      v4Quoter: infra.contracts.v4Quoter,
      permit2: infra.contracts.permit2,
      multicall3: infra.contracts.multicall3,
      complianceRegistry: complianceRegistry.address,
      complianceHook: complianceHook.address,
    },
    tokens,
    markets: result.file.pools ?? [],
    pool: {
      ...target.poolKey,
      sqrtPriceX96: sqrtPriceX96.toString(),
      liquidity: result.pool!.liquidity.toString(),
    },
    accounts: { deployer, attester: deployer, seeder, funded },
    // Hook v3 (issue 54); the attester's key (devnet account 0) is its authorizer on a devnet.
    hookVersion: CURRENT_HOOK_VERSION,
    authorizers: target.authorizers,
    compliance: {
      sanctionsOracle: infra.sanctionsOracle,
      exitPolicy: DEFAULT_EXIT_POLICY,
      ...devnetComplianceSection(infra.attestations),
    },
  };
}
