import { JsonRpcProvider, Wallet } from 'ethers';
import { devnetPrivateKeys, startDevnet } from '../../src/chain/devnet/devnet';
import { devnetNetworkDefinition } from '../../src/chain/network/network-definition';
import type { NetworkDefinition } from '../../src/chain/network/network.types';
import { ERC20, PERMIT2 } from '../../contracts/test/uniswap-actions';

const MAX160 = (1n << 160n) - 1n;
const FAR = 2n ** 47n;

export interface DevnetWallets {
  net: NetworkDefinition;
  provider: JsonRpcProvider;
  /** The devnet's first `count` funded accounts. */
  wallets: Wallet[];
}

/**
 * The gas benches' chain: an embedded devnet in this process, its network definition, a provider
 * that asks nothing twice, and its first funded wallets; stopped when `run` ends.
 */
export async function withDevnetWallets<T>(
  count: number,
  run: (chain: DevnetWallets) => Promise<T>,
): Promise<T> {
  const devnet = await startDevnet({ port: 0 });
  const net = devnetNetworkDefinition(devnet.deployment);
  const provider = new JsonRpcProvider(devnet.rpcUrl, net.chainId, {
    staticNetwork: true,
    cacheTimeout: -1,
  });
  try {
    const wallets = devnetPrivateKeys(count).map((k) => new Wallet(k, provider));
    return await run({ net, provider, wallets });
  } finally {
    provider.destroy();
    await devnet.close();
  }
}

/** Sends `data` to `to` from `from` and waits for it; a revert throws. */
export async function sendMined(from: Wallet, to: string, data: string) {
  const receipt = (await (await from.sendTransaction({ to, data })).wait())!;
  if (receipt.status !== 1) throw new Error(`transaction to ${to} reverted`);
  return receipt;
}

/** Each token approved to Permit2, and through Permit2 to each spender, without limit. */
export async function approveThroughPermit2(
  wallet: Wallet,
  net: NetworkDefinition,
  tokens: string[],
  spenders: string[],
): Promise<void> {
  for (const token of tokens) {
    await sendMined(
      wallet,
      token,
      ERC20.encodeFunctionData('approve', [net.contracts.permit2, MAX160]),
    );
    for (const spender of spenders)
      await sendMined(
        wallet,
        net.contracts.permit2,
        PERMIT2.encodeFunctionData('approve', [token, spender, MAX160, FAR]),
      );
  }
}
