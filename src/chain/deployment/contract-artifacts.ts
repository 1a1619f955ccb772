/**
 * Our own compiled contracts (ComplianceRegistry, ComplianceHook, TestUSDC, Multicall3), committed
 * under contracts/artifacts/ by `npm run contracts:build`, the init code a deployment sends, and
 * the compiled artifacts other projects ship in their npm packages (Uniswap, EAS, Safe).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Interface, InterfaceAbi } from 'ethers';

export interface LoadedArtifact {
  abi: readonly unknown[];
  bytecode: string;
  deployedBytecode?: string;
}

export type OwnContractName =
  | 'ComplianceRegistry'
  | 'ComplianceHook'
  | 'ComplianceHookV3'
  | 'TestUSDC'
  | 'TestToken'
  | 'Multicall3'
  | 'SanctionsOracle'
  | 'AttestationIndexer'
  | 'AttesterResolver'
  | 'WalletSimulator';

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

export function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** A file of an installed npm package, resolved from the repository root. */
export function modulePath(relative: string): string {
  return require.resolve(relative, { paths: [findRepoRoot()] });
}

/** Foundry layout (`bytecode.object`) and Hardhat layout (`bytecode` string) both appear. */
export function packageArtifact(relative: string): LoadedArtifact {
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

const cache = new Map<OwnContractName, LoadedArtifact>();

export function loadOwnArtifact(name: OwnContractName): LoadedArtifact {
  let artifact = cache.get(name);
  if (!artifact) {
    const json = readJson(join(findRepoRoot(), 'contracts', 'artifacts', `${name}.json`));
    artifact = {
      abi: json.abi as unknown[],
      bytecode: json.bytecode as string,
      deployedBytecode: json.deployedBytecode as string,
    };
    cache.set(name, artifact);
  }
  return artifact;
}

/** Creation bytecode followed by the ABI-encoded constructor arguments. */
export function initCode(artifact: LoadedArtifact, args: unknown[]): string {
  return (
    artifact.bytecode + new Interface(artifact.abi as InterfaceAbi).encodeDeploy(args).slice(2)
  );
}

export function ownInterface(name: OwnContractName): Interface {
  return new Interface(loadOwnArtifact(name).abi as InterfaceAbi);
}
