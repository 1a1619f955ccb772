/**
 * Builds the compliance credential circuit and runs a LOCAL Groth16 trusted setup.
 *
 *   npm run zk:build
 *
 * Outputs (commit them together; the verifier's key must match the prover's zkey):
 *   circuits/build/compliance_credential.wasm   witness generator (prover side)
 *   circuits/build/compliance_credential.zkey   final proving key (prover side)
 *   circuits/build/verification_key.json        verification key (service side)
 *   circuits/build/build-info.json              constraint count, setup power, SHA-256 of each file
 *
 * Trusted setup: ONE local contributor with fresh random entropy for the powers of tau and for
 * phase 2, then a public beacon. Whoever ran this build could keep the toxic waste and forge
 * proofs, so this is fit for the test network only. Production needs a multi-party ceremony:
 * a public powers-of-tau file (e.g. the Perpetual Powers of Tau / Hermez ptau) plus independent
 * phase-2 contributors, verified with `snarkjs zkey verify`.
 *
 * Nothing is downloaded: circom runs as WebAssembly from the `circom2` package.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { compileCircuit } from '../../src/cli/zk-ceremony-command';
import { loadSnarkjs } from '../../src/compliance/zk/snarkjs';
import { BUILD_DIR, CIRCUIT_NAME, CIRCUIT_SOURCE, REPO_ROOT } from './paths';

const snarkjs = loadSnarkjs();

const MIN_POWER = 12;

function step(message: string): void {
  process.stdout.write(`[zk:build] ${message}\n`);
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function packageVersion(name: string): string {
  const file = join(REPO_ROOT, 'node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

async function main(): Promise<void> {
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'zk-build-'));
  // Multi-threaded curve: the setup is the only heavy part; terminated in `finally`.
  const curve = await snarkjs.curves.getCurveFromName('bn128');
  try {
    step(`compiling ${CIRCUIT_SOURCE}`);
    const { r1cs, wasm } = compileCircuit(work, true);
    const info = await snarkjs.r1cs.info(r1cs);
    const nPublic = info.nPubInputs + info.nOutputs;
    let power = MIN_POWER;
    while (2 ** power < info.nConstraints + nPublic + 1) power += 1;
    step(`${info.nConstraints} constraints, ${info.nVars} wires -> powers of tau 2^${power}`);

    const pot0 = join(work, 'pot_0000.ptau');
    const pot1 = join(work, 'pot_0001.ptau');
    const potFinal = join(work, 'pot_final.ptau');
    const entropy = () => randomBytes(32).toString('hex');
    step('phase 1: new accumulator, one local contribution, prepare phase 2');
    await snarkjs.powersOfTau.newAccumulator(curve, power, pot0);
    await snarkjs.powersOfTau.contribute(pot0, pot1, 'local test-network contribution', entropy());
    await snarkjs.powersOfTau.preparePhase2(pot1, potFinal);

    const zkey0 = join(work, 'setup_0000.zkey');
    const zkey1 = join(work, 'setup_0001.zkey');
    const zkeyFinal = join(work, `${CIRCUIT_NAME}.zkey`);
    step('phase 2: circuit-specific setup, one local contribution, beacon');
    await snarkjs.zKey.newZKey(r1cs, potFinal, zkey0);
    await snarkjs.zKey.contribute(zkey0, zkey1, 'local test-network phase 2', entropy());
    await snarkjs.zKey.beacon(
      zkey1,
      zkeyFinal,
      'final beacon',
      randomBytes(32).toString('hex'),
      10,
    );

    step('verifying the zkey against the r1cs and ptau');
    if (!(await snarkjs.zKey.verifyFromR1cs(r1cs, potFinal, zkeyFinal))) {
      throw new Error('zkey verification failed');
    }
    const verificationKey = await snarkjs.zKey.exportVerificationKey(zkeyFinal);

    mkdirSync(BUILD_DIR, { recursive: true });
    const out = {
      wasm: join(BUILD_DIR, `${CIRCUIT_NAME}.wasm`),
      zkey: join(BUILD_DIR, `${CIRCUIT_NAME}.zkey`),
      verificationKey: join(BUILD_DIR, 'verification_key.json'),
    };
    copyFileSync(wasm, out.wasm);
    copyFileSync(zkeyFinal, out.zkey);
    writeFileSync(out.verificationKey, `${JSON.stringify(verificationKey, null, 2)}\n`);
    const buildInfo = {
      circuit: `circuits/${CIRCUIT_NAME}.circom`,
      circomSha256: sha256(CIRCUIT_SOURCE),
      compiler: `circom2 ${packageVersion('circom2')} (--O2)`,
      snarkjs: packageVersion('snarkjs'),
      constraints: info.nConstraints,
      wires: info.nVars,
      nPublic: verificationKey.nPublic,
      ptauPower: power,
      setup: 'LOCAL single-contributor setup: test network only, production needs a ceremony',
      sha256: {
        [`${CIRCUIT_NAME}.wasm`]: sha256(out.wasm),
        [`${CIRCUIT_NAME}.zkey`]: sha256(out.zkey),
        'verification_key.json': sha256(out.verificationKey),
      },
    };
    writeFileSync(join(BUILD_DIR, 'build-info.json'), `${JSON.stringify(buildInfo, null, 2)}\n`);
    step(`wrote ${BUILD_DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await curve.terminate();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `[zk:build] failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
