/**
 * Safe v1.4.1 as Safe deploys it on every chain: the canonical addresses (and runtime code
 * hashes) of `@safe-global/safe-deployments`, for the chain a network file names, and the
 * compiled artifacts of `@safe-global/safe-contracts` 1.4.1 (the bytecode the canonical
 * deployments run: deployed through the Safe singleton factory with salt 0, they land at exactly
 * those addresses, which safe-contracts.spec.ts checks).
 *
 * The service treats a wallet as a Safe when it is a SafeProxy (its runtime code is the proxy's,
 * whose hash is fixed: the singleton lives in storage slot 0) whose singleton is one of these.
 */
import {
  getCompatibilityFallbackHandlerDeployment,
  getCreateCallDeployment,
  getMultiSendCallOnlyDeployment,
  getMultiSendDeployment,
  getProxyFactoryDeployment,
  getSafeL2SingletonDeployment,
  getSafeSingletonDeployment,
  getSignMessageLibDeployment,
  getSimulateTxAccessorDeployment,
  type SingletonDeployment,
} from '@safe-global/safe-deployments';
import { getAddress, keccak256 } from 'ethers';
import { LoadedArtifact, packageArtifact } from '../deployment/contract-artifacts';

export const SAFE_VERSION = '1.4.1';

export interface SafeContracts {
  version: typeof SAFE_VERSION;
  /** The singleton new Safes use (design §10: SafeL2, whose events indexers read on L2s). */
  safeL2Singleton: string;
  /** The L1 singleton: Safes created with it are recognised too. */
  safeSingleton: string;
  proxyFactory: string;
  multiSendCallOnly: string;
  fallbackHandler: string;
}

type Lookup = (filter: object) => SingletonDeployment | undefined;

/** The five contracts the service uses, by their safe-deployments lookup. */
const LOOKUPS = {
  safeL2Singleton: getSafeL2SingletonDeployment,
  safeSingleton: getSafeSingletonDeployment,
  proxyFactory: getProxyFactoryDeployment,
  multiSendCallOnly: getMultiSendCallOnlyDeployment,
  fallbackHandler: getCompatibilityFallbackHandlerDeployment,
} as const satisfies Record<keyof Omit<SafeContracts, 'version'>, Lookup>;

/** The rest of the 1.4.1 release, which Safe's SDKs expect on a chain (protocol-kit: MultiSend). */
const OTHER_LOOKUPS = {
  multiSend: getMultiSendDeployment,
  signMessageLib: getSignMessageLibDeployment,
  createCall: getCreateCallDeployment,
  simulateTxAccessor: getSimulateTxAccessorDeployment,
} as const satisfies Record<string, Lookup>;
export type SafeContractName = keyof typeof LOOKUPS | keyof typeof OTHER_LOOKUPS;

/** The canonical deployment of `name` (address and runtime code hash), whatever the chain. */
export function canonicalSafeDeployment(name: SafeContractName): {
  address: string;
  codeHash: string;
} {
  const lookup: Lookup =
    name in LOOKUPS
      ? LOOKUPS[name as keyof typeof LOOKUPS]
      : OTHER_LOOKUPS[name as keyof typeof OTHER_LOOKUPS];
  const canonical = lookup({ version: SAFE_VERSION })?.deployments.canonical;
  if (!canonical) throw new Error(`safe-deployments has no canonical ${name} ${SAFE_VERSION}`);
  return { address: getAddress(canonical.address), codeHash: canonical.codeHash };
}

const byChain = new Map<number, SafeContracts | null>();

/**
 * Safe v1.4.1 on `chainId` at its canonical addresses, or null when safe-deployments lists no
 * canonical deployment of every contract there (the Safe features are then off).
 */
export function safeContractsFor(chainId: number): SafeContracts | null {
  if (!byChain.has(chainId)) {
    const found: Partial<SafeContracts> = { version: SAFE_VERSION };
    for (const [name, lookup] of Object.entries(LOOKUPS) as Array<[keyof typeof LOOKUPS, Lookup]>) {
      const deployment = lookup({ version: SAFE_VERSION, network: String(chainId) });
      const at = deployment?.networkAddresses[String(chainId)];
      const canonical = deployment?.deployments.canonical?.address;
      if (!at || !canonical || at.toLowerCase() !== canonical.toLowerCase()) {
        byChain.set(chainId, null);
        return null;
      }
      found[name] = getAddress(canonical);
    }
    byChain.set(chainId, found as SafeContracts);
  }
  return byChain.get(chainId)!;
}

/** The artifacts of @safe-global/safe-contracts 1.4.1 (Hardhat layout), never recompiled. */
const ARTIFACTS = {
  SafeL2: 'SafeL2.sol/SafeL2.json',
  Safe: 'Safe.sol/Safe.json',
  SafeProxy: 'proxies/SafeProxy.sol/SafeProxy.json',
  SafeProxyFactory: 'proxies/SafeProxyFactory.sol/SafeProxyFactory.json',
  MultiSendCallOnly: 'libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json',
  CompatibilityFallbackHandler:
    'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json',
  MultiSend: 'libraries/MultiSend.sol/MultiSend.json',
  SignMessageLib: 'libraries/SignMessageLib.sol/SignMessageLib.json',
  CreateCall: 'libraries/CreateCall.sol/CreateCall.json',
  SimulateTxAccessor: 'accessors/SimulateTxAccessor.sol/SimulateTxAccessor.json',
} as const;
export type SafeArtifactName = keyof typeof ARTIFACTS;
const artifacts = new Map<SafeArtifactName, LoadedArtifact>();

export function loadSafeArtifact(name: SafeArtifactName): LoadedArtifact {
  let artifact = artifacts.get(name);
  if (!artifact) {
    artifact = packageArtifact(
      `@safe-global/safe-contracts/build/artifacts/contracts/${ARTIFACTS[name]}`,
    );
    artifacts.set(name, artifact);
  }
  return artifact;
}

/** The deployments the devnets place (the whole 1.4.1 release), with the artifact each runs. */
export const DEVNET_SAFE_DEPLOYMENTS: ReadonlyArray<[SafeContractName, SafeArtifactName]> = [
  ['safeL2Singleton', 'SafeL2'],
  ['safeSingleton', 'Safe'],
  ['proxyFactory', 'SafeProxyFactory'],
  ['multiSendCallOnly', 'MultiSendCallOnly'],
  ['fallbackHandler', 'CompatibilityFallbackHandler'],
  ['multiSend', 'MultiSend'],
  ['signMessageLib', 'SignMessageLib'],
  ['createCall', 'CreateCall'],
  ['simulateTxAccessor', 'SimulateTxAccessor'],
];

/**
 * What SafeProxyFactory.proxyCreationCode() answers (type(SafeProxy).creationCode), and the
 * keccak256 of the runtime code every proxy it creates runs: no immutables, so one hash for all.
 */
export function safeProxyCode(): { creationCode: string; runtimeCodeHash: string } {
  const proxy = loadSafeArtifact('SafeProxy');
  return { creationCode: proxy.bytecode, runtimeCodeHash: keccak256(proxy.deployedBytecode!) };
}

/**
 * Where a Safe keeps its transaction guard (base/GuardManager.sol: keccak256
 * "guard_manager.guard.address"): a guard runs its own code around every execTransaction.
 */
export const SAFE_GUARD_STORAGE_SLOT =
  '0x4a204f620c8c5ccdca3fd54d003badd85ba500436a431f0cbda4f558c93c34c8';
