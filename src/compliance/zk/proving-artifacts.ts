import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { resolveZkArtifact } from './zk-artifacts';

/** One file a prover downloads: where (relative to the service), its SHA-256 and size. */
export type ProvingArtifact = { file: string; url: string; sha256: string; bytes: number };

export type ProvingArtifacts = {
  circuit: 'compliance_credential';
  /** Changes whenever either file changes: the first 16 hex of SHA-256(wasm sha || zkey sha). */
  version: string;
  wasm: ProvingArtifact;
  zkey: ProvingArtifact;
  verificationKey: { sha256: string };
};

/** URL prefix of the served proving files: `/zk/<sha256>/<file>` (content-addressed, immutable). */
export const ZK_FILES_PATH = '/zk';

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function artifact(path: string): ProvingArtifact & { path: string } {
  const abs = resolveZkArtifact(path);
  const hash = sha256(abs);
  const file = basename(abs);
  return {
    path: abs,
    file,
    url: `${ZK_FILES_PATH}/${hash}/${file}`,
    sha256: hash,
    bytes: statSync(abs).size,
  };
}

/**
 * What a prover needs, pinned: the circuit's witness generator (wasm) and the proving key (zkey)
 * that matches the service's verification key, each named by its SHA-256. Throws when a file
 * cannot be read (the caller names the setting).
 */
export function describeProvingArtifacts(paths: {
  wasm: string;
  zkey: string;
  verificationKey: string;
}): { artifacts: ProvingArtifacts; files: Map<string, string> } {
  const wasm = artifact(paths.wasm);
  const zkey = artifact(paths.zkey);
  const vk = resolveZkArtifact(paths.verificationKey);
  const version = createHash('sha256')
    .update(wasm.sha256 + zkey.sha256)
    .digest('hex')
    .slice(0, 16);
  const strip = ({ path: _path, ...rest }: ProvingArtifact & { path: string }) => rest;
  return {
    artifacts: {
      circuit: 'compliance_credential',
      version,
      wasm: strip(wasm),
      zkey: strip(zkey),
      verificationKey: { sha256: sha256(vk) },
    },
    // url path (after ZK_FILES_PATH) -> file on disk
    files: new Map([
      [`/${wasm.sha256}/${wasm.file}`, wasm.path],
      [`/${zkey.sha256}/${zkey.file}`, zkey.path],
    ]),
  };
}
