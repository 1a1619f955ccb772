import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PUBLIC_SIGNAL_COUNT } from './compliance-circuit';
import { loadSnarkjs, withBn128Curve } from './snarkjs';
import { loadComplianceVerificationKey, resolveZkArtifact, ZK_ARTIFACTS } from './zk-artifacts';

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('zk artifacts (circuits/build)', () => {
  it('the committed verification key is the one of the committed zkey', async () => {
    const fromZkey = await withBn128Curve(() =>
      loadSnarkjs().zKey.exportVerificationKey(resolveZkArtifact(ZK_ARTIFACTS.zkey)),
    );
    expect(JSON.parse(JSON.stringify(fromZkey))).toEqual(loadComplianceVerificationKey());
  });

  it('build-info matches the committed files and the circuit source (rerun npm run zk:build)', () => {
    const info = JSON.parse(
      readFileSync(resolveZkArtifact('circuits/build/build-info.json'), 'utf8'),
    );
    expect(info.circomSha256).toBe(
      sha256(resolveZkArtifact('circuits/compliance_credential.circom')),
    );
    expect(info.sha256).toEqual({
      'compliance_credential.wasm': sha256(resolveZkArtifact(ZK_ARTIFACTS.wasm)),
      'compliance_credential.zkey': sha256(resolveZkArtifact(ZK_ARTIFACTS.zkey)),
      'verification_key.json': sha256(resolveZkArtifact(ZK_ARTIFACTS.verificationKey)),
    });
  });

  it('refuses a verification key of another shape', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zk-vk-'));
    try {
      const vk = loadComplianceVerificationKey();
      const file = join(dir, 'vk.json');
      writeFileSync(file, JSON.stringify({ ...vk, nPublic: 3, IC: vk.IC.slice(1) }));
      expect(() => loadComplianceVerificationKey(file)).toThrow(
        new RegExp(`${PUBLIC_SIGNAL_COUNT} public signals`),
      );
      writeFileSync(file, '{not json');
      expect(() => loadComplianceVerificationKey(file)).toThrow(/cannot read verification key/);
      expect(() => loadComplianceVerificationKey(join(dir, 'missing.json'))).toThrow(/cannot read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
