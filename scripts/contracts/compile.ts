/** `npm run contracts:build`: recompiles contracts/src and rewrites contracts/artifacts/*.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { ARTIFACTS_DIR, artifactPath, compileContracts, serializeArtifact } from './solc-build';

const started = Date.now();
mkdirSync(ARTIFACTS_DIR, { recursive: true });
for (const artifact of compileContracts()) {
  writeFileSync(artifactPath(artifact.contractName), serializeArtifact(artifact));
  console.log(`${artifact.contractName}: ${(artifact.bytecode.length - 2) / 2} bytes initcode`);
}
console.log(`compiled in ${Date.now() - started} ms`);
