/**
 * Safe v1.4.1 on the devnets, deployed the way Safe deploys it on every chain (design §10):
 *
 * 1. the Safe singleton factory, installed by its presigned transaction for this chain id
 *    (`@safe-global/safe-singleton-factory`: a keyless, chain-bound signature, as on Base Sepolia)
 *    after its one-time signer is given the gas money;
 * 2. SafeL2, Safe, SafeProxyFactory, MultiSendCallOnly, CompatibilityFallbackHandler and the rest
 *    of the release Safe's SDKs look for (MultiSend, SignMessageLib, CreateCall,
 *    SimulateTxAccessor) through that factory with salt 0 and the bytecode of
 *    `@safe-global/safe-contracts` 1.4.1.
 *
 * So every contract lands at its canonical address, and a Safe address computed for Base Sepolia
 * is the same here. Each contract's runtime code hash is checked against safe-deployments': a
 * devnet whose Safe differs from the canonical one fails to start.
 *
 * The factory calls are sent by the factory's signer, impersonated (a devnet facility): no
 * development account's nonce moves, so every other devnet address stays where it was.
 */
import { getSingletonFactoryInfo } from '@safe-global/safe-singleton-factory';
import { getAddress, keccak256, toQuantity, ZeroHash } from 'ethers';
import { rpcCall } from '../deployment/deployment-rpc';
import {
  canonicalSafeDeployment,
  DEVNET_SAFE_DEPLOYMENTS,
  loadSafeArtifact,
  SafeContracts,
  safeContractsFor,
} from '../safe/safe-contracts';
import type { Deployer, Eip1193 } from './devnet-deployer';

/** Gas money for the impersonated signer's deployments (a devnet's fees are tiny). */
const SIGNER_FUNDS_WEI = 10n ** 18n;

export async function deploySafe(
  rpc: Eip1193,
  d: Deployer,
  chainId: number,
): Promise<SafeContracts> {
  const factory = getSingletonFactoryInfo(chainId);
  const contracts = safeContractsFor(chainId);
  if (!factory || !contracts)
    throw new Error(`no Safe singleton factory or Safe ${chainId} deployment is published`);
  const signer = getAddress(factory.signerAddress);
  const gasPrice = BigInt(factory.gasPrice);
  // The presigned transaction's fixed gas price must meet the next block's base fee.
  const latest = await rpcCall<{ baseFeePerGas?: string }>(rpc, 'eth_getBlockByNumber', [
    'latest',
    false,
  ]);
  if (BigInt(latest.baseFeePerGas ?? 0) > gasPrice)
    await rpcCall(rpc, 'hardhat_setNextBlockBaseFeePerGas', [toQuantity(gasPrice)]);
  await rpcCall(rpc, 'hardhat_setBalance', [
    signer,
    toQuantity(gasPrice * BigInt(factory.gasLimit) + SIGNER_FUNDS_WEI),
  ]);
  await d.sendRaw(factory.transaction);

  await rpcCall(rpc, 'hardhat_impersonateAccount', [signer]);
  try {
    for (const [name, artifact] of DEVNET_SAFE_DEPLOYMENTS) {
      const { address, codeHash } = canonicalSafeDeployment(name);
      await d.send(
        signer,
        factory.address,
        ZeroHash + loadSafeArtifact(artifact).bytecode.slice(2),
      );
      const code = await rpcCall<string>(rpc, 'eth_getCode', [address, 'latest']);
      if (code === '0x' || keccak256(code) !== codeHash)
        throw new Error(`Safe ${name} is not the canonical ${address} after its deployment`);
    }
  } finally {
    await rpcCall(rpc, 'hardhat_stopImpersonatingAccount', [signer]);
  }
  return contracts;
}
