/**
 * Compiles contracts/src/*.sol with the pinned `solc` npm package (soljson, no binary download)
 * and produces the artifacts committed under contracts/artifacts/. Shared by the build script and
 * the drift test, so both use exactly the same compiler input.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SOLC_VERSION = '0.8.26';
export const EVM_VERSION = 'cancun';
export const OPTIMIZER_RUNS = 200;

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const CONTRACTS_SRC = join(REPO_ROOT, 'contracts', 'src');
export const ARTIFACTS_DIR = join(REPO_ROOT, 'contracts', 'artifacts');

export interface ContractArtifact {
  contractName: string;
  sourceName: string;
  /** sha256 over every source file (ours and imported) that went into the compilation. */
  sourceHash: string;
  compiler: { version: string; evmVersion: string; optimizerRuns: number };
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<
    string,
    Record<
      string,
      {
        abi: unknown[];
        evm: { bytecode: { object: string }; deployedBytecode: { object: string } };
      }
    >
  >;
  sources: Record<string, unknown>;
}

function resolveImport(path: string): { contents: string } | { error: string } {
  const candidates = [join(REPO_ROOT, 'node_modules', path), join(CONTRACTS_SRC, path)];
  const found = candidates.find((c) => existsSync(c));
  return found ? { contents: readFileSync(found, 'utf8') } : { error: `not found: ${path}` };
}

export function compileContracts(): ContractArtifact[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require('solc') as { version(): string; compile(input: string, cb: object): string };
  if (!solc.version().startsWith(SOLC_VERSION)) {
    throw new Error(`solc ${SOLC_VERSION} expected, found ${solc.version()}`);
  }
  const files = readdirSync(CONTRACTS_SRC)
    .filter((f) => f.endsWith('.sol'))
    .sort();
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(
      files.map((f) => [f, { content: readFileSync(join(CONTRACTS_SRC, f), 'utf8') }]),
    ),
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: OPTIMIZER_RUNS },
      // No metadata hash: the bytecode then depends only on the source, not on file paths.
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: {
        '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] },
      },
    },
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), { import: resolveImport }),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));

  const hash = createHash('sha256');
  for (const name of Object.keys(output.sources).sort()) {
    hash.update(name).update('\0').update(resolveSourceText(name, input.sources)).update('\0');
  }
  const sourceHash = `sha256:${hash.digest('hex')}`;

  return files.flatMap((file) =>
    Object.entries(output.contracts[file] ?? {})
      .filter(([, c]) => c.evm.bytecode.object.length > 0)
      .map(([contractName, c]) => ({
        contractName,
        sourceName: `contracts/src/${file}`,
        sourceHash,
        compiler: { version: SOLC_VERSION, evmVersion: EVM_VERSION, optimizerRuns: OPTIMIZER_RUNS },
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      })),
  );
}

function resolveSourceText(name: string, own: Record<string, { content: string }>): string {
  if (own[name]) return own[name].content;
  const r = resolveImport(name);
  return 'contents' in r ? r.contents : '';
}

export function artifactPath(contractName: string): string {
  return join(ARTIFACTS_DIR, `${contractName}.json`);
}

export function serializeArtifact(a: ContractArtifact): string {
  return `${JSON.stringify(a, null, 2)}\n`;
}
