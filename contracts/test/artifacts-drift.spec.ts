/**
 * Fails when contracts/src and the committed contracts/artifacts drift apart: recompiles with the
 * pinned solc and compares ABI, bytecode and source hash. Fix: `npm run contracts:build`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import {
  ARTIFACTS_DIR,
  artifactPath,
  compileContracts,
  ContractArtifact,
  serializeArtifact,
} from '../../scripts/contracts/solc-build';

describe('contract artifacts', () => {
  let compiled: ContractArtifact[];

  beforeAll(() => {
    compiled = compileContracts();
  }, 60_000);

  it('match a fresh compilation of contracts/src (run `npm run contracts:build` when this fails)', () => {
    for (const artifact of compiled) {
      const path = artifactPath(artifact.contractName);
      expect(existsSync(path)).toBe(true);
      const committed = JSON.parse(readFileSync(path, 'utf8')) as ContractArtifact;
      expect({ name: committed.contractName, sourceHash: committed.sourceHash }).toEqual({
        name: artifact.contractName,
        sourceHash: artifact.sourceHash,
      });
      expect(committed.abi).toEqual(artifact.abi);
      expect(committed.bytecode).toBe(artifact.bytecode);
      expect(readFileSync(path, 'utf8')).toBe(serializeArtifact(artifact));
    }
  });

  it('has no stale artifact without a source contract', () => {
    const names = new Set(compiled.map((a) => `${a.contractName}.json`));
    expect(readdirSync(ARTIFACTS_DIR).filter((f) => f.endsWith('.json') && !names.has(f))).toEqual(
      [],
    );
  });

  it('pins solc 0.8.26 for Cancun with the optimizer', () => {
    for (const artifact of compiled)
      expect(artifact.compiler).toEqual({
        version: '0.8.26',
        evmVersion: 'cancun',
        optimizerRuns: 200,
      });
  });
});
