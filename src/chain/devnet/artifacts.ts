/**
 * Loads the compiled bytecode of the devnet's public infrastructure: the official Uniswap artifacts
 * shipped in the npm packages (never recompiled, so the devnet runs exactly the audited bytecode)
 * and Permit2's runtime code. Our own artifacts are loaded by the deployment (contract-artifacts.ts).
 */
import { readFileSync } from 'node:fs';
import {
  findRepoRoot,
  LoadedArtifact,
  loadOwnArtifact,
  modulePath,
  OwnContractName,
  packageArtifact,
} from '../deployment/contract-artifacts';

// Our own artifacts belong to the deployment (src/chain/deployment), which a real network runs too.
export { findRepoRoot, loadOwnArtifact };
export type { LoadedArtifact, OwnContractName };

export const UNISWAP_ARTIFACTS = {
  PoolManager: '@uniswap/v4-core/out/PoolManager.sol/PoolManager.json',
  PositionManager: '@uniswap/v4-periphery/foundry-out/PositionManager.sol/PositionManager.json',
  PositionDescriptor:
    '@uniswap/v4-periphery/foundry-out/PositionDescriptor.sol/PositionDescriptor.json',
  StateView: '@uniswap/v4-periphery/foundry-out/StateView.sol/StateView.json',
  V4Quoter: '@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json',
  // solmate WETH (v4-periphery's test dependency): WETH9-compatible deposit/withdraw/ERC20.
  WETH: '@uniswap/v4-periphery/foundry-out/WETH.sol/WETH.default.json',
  UniversalRouter:
    '@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json',
} as const;

export type UniswapContractName = keyof typeof UNISWAP_ARTIFACTS;
const cache = new Map<string, LoadedArtifact>();

export function loadUniswapArtifact(name: UniswapContractName): LoadedArtifact {
  const key = `uniswap:${name}`;
  if (!cache.has(key)) cache.set(key, packageArtifact(UNISWAP_ARTIFACTS[name]));
  return cache.get(key)!;
}

/**
 * Canonical Permit2 runtime code. No Permit2 package exists on npm; Uniswap ships the runtime
 * code as a hex literal in v4-periphery lib/permit2/test/utils/DeployPermit2.sol (used there
 * with vm.etch at the canonical address), so we read it from that file.
 */
export function loadPermit2RuntimeCode(): string {
  const source = readFileSync(
    modulePath('@uniswap/v4-periphery/lib/permit2/test/utils/DeployPermit2.sol'),
    'utf8',
  );
  const match = /hex"([0-9a-fA-F]+)"/.exec(source);
  if (!match) throw new Error('Permit2 bytecode literal not found in DeployPermit2.sol');
  return `0x${match[1]}`;
}

/** Ethereum Attestation Service, from its npm package's compiled artifacts (never recompiled). */
export const EAS_ARTIFACTS = {
  EAS: '@ethereum-attestation-service/eas-contracts/artifacts/contracts/EAS.sol/EAS.json',
  SchemaRegistry:
    '@ethereum-attestation-service/eas-contracts/artifacts/contracts/SchemaRegistry.sol/SchemaRegistry.json',
} as const;

export function loadEasArtifact(name: keyof typeof EAS_ARTIFACTS): LoadedArtifact {
  const key = `eas:${name}`;
  if (!cache.has(key)) cache.set(key, packageArtifact(EAS_ARTIFACTS[name]));
  return cache.get(key)!;
}
