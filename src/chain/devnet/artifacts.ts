/**
 * Loads the compiled bytecode the devnet deploys: the official Uniswap artifacts shipped in the
 * npm packages (never recompiled, so the devnet runs exactly the audited bytecode) and our own
 * artifacts committed under contracts/artifacts/ (built by `npm run contracts:build`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface LoadedArtifact {
  abi: readonly unknown[];
  bytecode: string;
  deployedBytecode?: string;
}

/** Walks up from this file to the repository root (works from src/ under ts and from dist/). */
export function findRepoRoot(start = __dirname): string {
  let dir = start;
  while (!existsSync(join(dir, 'contracts', 'artifacts'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`contracts/artifacts not found above ${start}`);
    dir = parent;
  }
  return dir;
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

function modulePath(relative: string): string {
  return require.resolve(relative, { paths: [findRepoRoot()] });
}

/** Foundry layout (`bytecode.object`) and Hardhat layout (`bytecode` string) both appear. */
function uniswapArtifact(relative: string): LoadedArtifact {
  const json = readJson(modulePath(relative));
  const bytecode = json.bytecode as string | { object: string };
  const deployed = json.deployedBytecode as string | { object: string } | undefined;
  return {
    abi: json.abi as unknown[],
    bytecode: typeof bytecode === 'string' ? bytecode : bytecode.object,
    deployedBytecode:
      deployed === undefined
        ? undefined
        : typeof deployed === 'string'
          ? deployed
          : deployed.object,
  };
}

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
export type OwnContractName = 'ComplianceRegistry' | 'ComplianceHook' | 'TestUSDC' | 'Multicall3';

const cache = new Map<string, LoadedArtifact>();

export function loadUniswapArtifact(name: UniswapContractName): LoadedArtifact {
  const key = `uniswap:${name}`;
  if (!cache.has(key)) cache.set(key, uniswapArtifact(UNISWAP_ARTIFACTS[name]));
  return cache.get(key)!;
}

export function loadOwnArtifact(name: OwnContractName): LoadedArtifact {
  const key = `own:${name}`;
  if (!cache.has(key)) {
    const json = readJson(join(findRepoRoot(), 'contracts', 'artifacts', `${name}.json`));
    cache.set(key, {
      abi: json.abi as unknown[],
      bytecode: json.bytecode as string,
      deployedBytecode: json.deployedBytecode as string,
    });
  }
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
