/**
 * One devnet per jest worker, shared by the suites that worker runs, each suite starting from
 * the freshly deployed state (evm_revert to a snapshot taken right after deployment): suites pay
 * the deployment once per worker, not once per suite.
 *
 *   const chain = await acquireDevnet();
 *   const t = await createTestApp({ env: chain.env });   // CHAIN_RPC_URL + CHAIN_NETWORK=devnet
 *   ...
 *   await chain.release();
 *
 * The devnet is the worker's shared devnet (sharedDevnet() in src/chain/devnet/devnet-process.ts):
 * a child process on an ephemeral port that exits with the worker, the same one an app booted
 * without CHAIN_RPC_URL under jest uses.
 */
import { devnetRpc } from './devnet-mining';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { devnetPrivateKeys } from '../../src/chain/devnet/devnet';
import { sharedDevnet } from '../../src/chain/devnet/devnet-process';
import { devnetNetworkDefinition } from '../../src/chain/network/network-definition';
import type { DevnetDeployment, NetworkDefinition } from '../../src/chain/network/network.types';

export interface DevnetHandle {
  rpcUrl: string;
  /** Env for createTestApp so the app reads this devnet with the devnet addresses. */
  env: Record<string, string>;
  deployment: DevnetDeployment;
  network: NetworkDefinition;
  addresses: NetworkDefinition['contracts'] & { WETH: string; tUSDC: string };
  provider: JsonRpcProvider;
  /** Development mnemonic accounts 0..9, connected (0 = deployer + attester). No sessions. */
  wallets: Wallet[];
  /** JSON-RPC calls served since acquire()/resetRpcCount(): total, or of one method. */
  rpcRequestCount(method?: string): Promise<number>;
  rpcStats(): Promise<Record<string, number>>;
  resetRpcCount(): Promise<void>;
  /** Chain time (latest block timestamp). */
  chainTime(): Promise<number>;
  /** Opens a session for `address` lasting `seconds` of chain time (attester = account 0). */
  activateSession(address: string, seconds?: number): Promise<void>;
  release(): Promise<void>;
}

const rpc = devnetRpc;

export async function acquireDevnet(): Promise<DevnetHandle> {
  const devnet = await sharedDevnet();
  const url = devnet.rpcUrl;
  const shared = devnet.shared!;
  // The first acquire in this worker records the pristine (just deployed) state; every later
  // acquire and every release goes back to it. evm_revert consumes its snapshot: take a new one.
  const backToPristine = async () => {
    if (shared.pristineSnapshot !== null) await rpc(url, 'evm_revert', [shared.pristineSnapshot]);
    shared.pristineSnapshot = (await rpc(url, 'evm_snapshot')) as string;
    // The reverted-to latest block is as old as the snapshot: mine an empty one so "latest"
    // carries the current time, as on a live chain (sessions are computed from it). Its timestamp
    // is set to the wall clock: a suite that moved the chain's clock ahead (evm_setNextBlockTimestamp
    // to an expiry) leaves an offset the revert keeps, and the next suite would start in the future.
    const pristine = (await rpc(url, 'eth_getBlockByNumber', ['latest', false])) as {
      timestamp: string;
    };
    const now = Math.max(Math.floor(Date.now() / 1000), Number(pristine.timestamp) + 1);
    await rpc(url, 'evm_setNextBlockTimestamp', [now]);
    await rpc(url, 'evm_mine');
  };
  await backToPristine();
  await rpc(url, 'devnet_resetRpcStats');

  const deployment = devnet.deployment;
  const network = devnetNetworkDefinition(deployment);
  // No batching and no cache: each test-side call is one visible JSON-RPC request.
  const provider = new JsonRpcProvider(url, deployment.chainId, {
    staticNetwork: true,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
  const wallets = devnetPrivateKeys(10).map((key) => new Wallet(key, provider));
  const stats = async () => (await rpc(url, 'devnet_rpcStats')) as Record<string, number>;
  const chainTime = async () =>
    Number(
      ((await rpc(url, 'eth_getBlockByNumber', ['latest', false])) as { timestamp: string })
        .timestamp,
    );
  const registry = new Contract(
    network.contracts.complianceRegistry,
    ['function activate(address wallet, uint64 until)'],
    wallets[0],
  );

  return {
    rpcUrl: url,
    env: { CHAIN_RPC_URL: url, CHAIN_NETWORK: 'devnet' },
    deployment,
    network,
    addresses: {
      ...network.contracts,
      WETH: network.tokens.WETH.address,
      tUSDC: network.tokens.tUSDC.address,
    },
    provider,
    wallets,
    rpcStats: stats,
    async rpcRequestCount(method) {
      const s = await stats();
      return method ? (s[method] ?? 0) : Object.values(s).reduce((a, b) => a + b, 0);
    },
    resetRpcCount: async () => void (await rpc(url, 'devnet_resetRpcStats')),
    chainTime,
    async activateSession(address, seconds = 3_600) {
      await (await registry.activate(address, (await chainTime()) + seconds)).wait();
    },
    async release() {
      provider.destroy();
      await backToPristine();
    },
  };
}
