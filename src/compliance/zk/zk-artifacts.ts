import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

import { PUBLIC_SIGNAL_COUNT } from './compliance-circuit';
import { parseFieldElement } from './field';
import type { Groth16VerificationKey } from './snarkjs';

/** Committed outputs of `npm run zk:build`, relative to the repository root. */
export const ZK_ARTIFACTS = Object.freeze({
  wasm: 'circuits/build/compliance_credential.wasm',
  zkey: 'circuits/build/compliance_credential.zkey',
  verificationKey: 'circuits/build/verification_key.json',
});

/**
 * Absolute path of an artifact: absolute paths pass through; relative ones are looked up from
 * this file upwards (works from src/ under ts-node/jest and from dist/ after `npm run build`), then
 * from the working directory.
 */
export function resolveZkArtifact(path: string): string {
  if (isAbsolute(path)) return path;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, path);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return resolve(path);
  }
}

function isFieldTuple(value: unknown, length: number): boolean {
  return (
    Array.isArray(value) &&
    value.length === length &&
    value.every((v) =>
      Array.isArray(v)
        ? v.every((e) => parseFieldElement(e, 2n ** 256n) !== null)
        : parseFieldElement(v, 2n ** 256n) !== null,
    )
  );
}

/** Checks a parsed verification key has the shape of this circuit's Groth16 key; throws if not. */
export function assertComplianceVerificationKey(vk: unknown): asserts vk is Groth16VerificationKey {
  const k = vk as Partial<Groth16VerificationKey> | null;
  const ok =
    !!k &&
    k.protocol === 'groth16' &&
    k.curve === 'bn128' &&
    k.nPublic === PUBLIC_SIGNAL_COUNT &&
    isFieldTuple(k.vk_alpha_1, 3) &&
    isFieldTuple(k.vk_beta_2, 3) &&
    isFieldTuple(k.vk_gamma_2, 3) &&
    isFieldTuple(k.vk_delta_2, 3) &&
    Array.isArray(k.IC) &&
    k.IC.length === PUBLIC_SIGNAL_COUNT + 1 &&
    k.IC.every((p) => isFieldTuple(p, 3));
  if (!ok) {
    throw new Error(
      `not a Groth16 bn128 verification key with ${PUBLIC_SIGNAL_COUNT} public signals (compliance_credential circuit)`,
    );
  }
}

/** Reads and checks the verification key (default: the committed one). Throws on a bad file. */
export function loadComplianceVerificationKey(
  path: string = ZK_ARTIFACTS.verificationKey,
): Groth16VerificationKey {
  const file = resolveZkArtifact(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read verification key ${file}: ${(error as Error).message}`);
  }
  assertComplianceVerificationKey(parsed);
  return parsed;
}
