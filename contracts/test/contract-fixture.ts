/**
 * Shared fixture of the contract tests: an in-process devnet (real Uniswap v4 bytecode + our
 * contracts), wallets, and helpers. Every test runs between evm_snapshot / evm_revert.
 */
import { Contract, InterfaceAbi, JsonRpcProvider, Wallet } from 'ethers';
import { loadOwnArtifact } from '../../src/chain/devnet/artifacts';
import { devnetPrivateKeys, RunningDevnet, startDevnet } from '../../src/chain/devnet/devnet';
import { DecodedRevert, decodeRevert, revertDataOf } from '../../src/chain/encoding/revert-decoder';
import { devnetNetworkDefinition } from '../../src/chain/network/network-definition';
import type { NetworkDefinition } from '../../src/chain/network/network.types';
import { ERC20, PERMIT2 } from './uniswap-actions';

export const MAX160 = (1n << 160n) - 1n;
export const FAR = 2n ** 40n;

export interface ContractFixture {
  net: NetworkDefinition;
  provider: JsonRpcProvider;
  wallets: Wallet[];
  registry: Contract;
  hook: Contract;
  now(): Promise<number>;
  activate(who: string, seconds?: number): Promise<unknown>;
  /** Revert reason of `data` sent by `from` (an eth_call: what a broadcast would do). */
  revertOf(from: Wallet, to: string | null, data: string): Promise<DecodedRevert>;
  send(from: Wallet, to: string, data: string): Promise<{ status: number | null } | null>;
  approveThroughPermit2(owner: Wallet, spender: string): Promise<void>;
  balance(token: string, who: string): Promise<bigint>;
  increaseTime(seconds: number): Promise<void>;
}

export function useContractFixture(): ContractFixture {
  let devnet: RunningDevnet;
  let snapshot: string;
  const f = {} as ContractFixture;

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0 });
    const net = devnetNetworkDefinition(devnet.deployment);
    const provider = new JsonRpcProvider(devnet.rpcUrl, net.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    const wallets = devnetPrivateKeys(10).map((k) => new Wallet(k, provider));
    const abi = (name: 'ComplianceRegistry' | 'ComplianceHook') =>
      loadOwnArtifact(name).abi as InterfaceAbi;
    const send = async (from: Wallet, to: string, data: string) =>
      (await from.sendTransaction({ to, data })).wait();
    Object.assign(f, {
      net,
      provider,
      wallets,
      registry: new Contract(
        net.contracts.complianceRegistry,
        abi('ComplianceRegistry'),
        wallets[0],
      ),
      hook: new Contract(net.contracts.complianceHook, abi('ComplianceHook'), wallets[0]),
      now: async () => (await provider.getBlock('latest'))!.timestamp,
      activate: async (who: string, seconds = 3_600) =>
        (await f.registry.activate(who, (await f.now()) + seconds)).wait(),
      async revertOf(from: Wallet, to: string | null, data: string) {
        try {
          await provider.call({ from: from.address, to, data });
        } catch (err) {
          return decodeRevert(revertDataOf(err));
        }
        throw new Error('expected a revert');
      },
      send,
      async approveThroughPermit2(owner: Wallet, spender: string) {
        for (const token of [net.tokens.WETH.address, net.tokens.tUSDC.address]) {
          await send(
            owner,
            token,
            ERC20.encodeFunctionData('approve', [net.contracts.permit2, MAX160]),
          );
          await send(
            owner,
            net.contracts.permit2,
            PERMIT2.encodeFunctionData('approve', [token, spender, MAX160, FAR]),
          );
        }
      },
      balance: async (token: string, who: string) =>
        BigInt(
          await provider.call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [who]) }),
        ),
      async increaseTime(seconds: number) {
        await provider.send('evm_increaseTime', [seconds]);
        await provider.send('evm_mine', []);
      },
    } satisfies Partial<ContractFixture>);
  }, 60_000);

  afterAll(async () => {
    f.provider?.destroy();
    await devnet?.close();
  });

  beforeEach(async () => {
    snapshot = (await f.provider.send('evm_snapshot', [])) as string;
  });
  afterEach(async () => {
    await f.provider.send('evm_revert', [snapshot]);
  });

  return f;
}
