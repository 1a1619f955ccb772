import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Wallet } from 'ethers';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../../src/bootstrap/process-settings';
import { loadSnarkjs, withBn128Curve } from '../../src/compliance/zk/snarkjs';
import { proveCredential } from '../../src/compliance/zk/proof-generator';
import { ensureDistBuilt } from '../helpers/built-app-process';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import {
  ComplianceDevnet,
  CredentialKit,
  getChallenge,
  openCredentialKit,
  postVerify,
  startComplianceDevnet,
} from '../helpers/compliance';

/**
 * Issue 40 item 4: the operator's own trusted setup. docs/operators/compliance-operations.md's three-party rehearsal
 * (`zk ceremony init | contribute x3 | verify | finalize`, phase 1 the repository's rehearsal ptau,
 * circuits/rehearsal/phase1-14.ptau), as pasted; a tampered zkey fails `verify`; the final key
 * proves a credential that the service, pointed at the ceremony's keys, verifies (POST /verify
 * opens a session), and the production start check passes without ZK_TEST_SETUP_ALLOWED. A
 * one-person phase 1 of its own (`init --new-ptau`, 720 s of the suite at power 14) is made here
 * for a circuit of one constraint (power 2). CPU heavy: run on SQLite only (the
 * ceremony does not touch the database; POST /verify is covered on both engines by
 * verify.e2e-spec.ts).
 */
const CEREMONY_TIMEOUT_MS = 60 * 60_000;
jest.setTimeout(CEREMONY_TIMEOUT_MS);

const ROOT = join(__dirname, '..', '..');
const COMMITTED = join(ROOT, 'circuits', 'build');
const REHEARSAL_PTAU = join(ROOT, 'circuits', 'rehearsal', 'phase1-14.ptau');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The `bash` block of docs/operators/compliance-operations.md's "The trusted-setup ceremony" section. */
function ceremonyBlock(): string {
  const page = readFileSync(join(ROOT, 'docs', 'operators', 'compliance-operations.md'), 'utf8');
  const section = page.slice(page.indexOf('\n## The trusted-setup ceremony\n'));
  const match = /```bash\n([\s\S]*?)```/.exec(section);
  if (!match)
    throw new Error(
      'docs/operators/compliance-operations.md has no bash block under the ceremony section',
    );
  return match[1];
}

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const ceremonyCli = (args: string[]) =>
  run(process.execPath, ['dist/cli/main.js', 'zk', 'ceremony', ...args], {});

describe('zk ceremony: three parties, verified, finalized, used by the service', () => {
  let dir: string;
  let steps: Record<string, unknown>[];
  let chain: ComplianceDevnet | undefined;
  let t: TestApp | undefined;
  let kit: CredentialKit | undefined;

  beforeAll(async () => {
    ensureDistBuilt();
    dir = mkdtempSync(join(tmpdir(), 'cgk-ceremony-'));
    const started = Date.now();
    const pasted = await run('bash', ['-c', `set -euo pipefail\n${ceremonyBlock()}`], {
      CEREMONY_DIR: dir,
    });
    if (pasted.code !== 0)
      throw new Error(
        `the ceremony block failed (${pasted.code}):\n${pasted.stdout}\n${pasted.stderr}`,
      );
    steps = pasted.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const seconds = steps.map((s) => s.seconds);
    process.stdout.write(
      `[zk ceremony] three-party rehearsal (docs/operators/compliance-operations.md block) took ${((Date.now() - started) / 1000).toFixed(1)} s; steps: ${JSON.stringify(seconds)} s\n`,
    );
  }, CEREMONY_TIMEOUT_MS);

  afterAll(async () => {
    await kit?.close();
    await t?.close();
    await chain?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs init, three contributions, verify and finalize as pasted; verify lists every contribution with its hash', () => {
    expect(steps).toHaveLength(7);
    const [init, c1, c2, c3, verified, finalized, verifiedFinal] = steps;
    expect(init).toMatchObject({
      zkey: join(dir, '0000.zkey'),
      ptau: REHEARSAL_PTAU,
      phase1: 'given',
      constraints: 10165,
      circuitHash: expect.stringMatching(/^[0-9a-f]{128}$/),
    });
    const contributions = [c1, c2, c3];
    expect(contributions.map((c) => c.name)).toEqual(['operator', 'auditor', 'issuer']);
    for (const c of contributions) expect(c.contributionHash).toMatch(/^[0-9a-f]{128}$/);
    expect(new Set(contributions.map((c) => c.contributionHash)).size).toBe(3);

    expect(verified).toMatchObject({ valid: true, circuitHash: init.circuitHash });
    expect(verified.contributions).toEqual(
      contributions.map((c, i) => ({ index: i + 1, name: c.name, hash: c.contributionHash })),
    );

    expect(finalized).toMatchObject({
      zkey: join(dir, 'final.zkey'),
      verificationKey: join(dir, 'verification_key.json'),
      beacon: { iterationsExp: 10 },
      sha256: { zkey: sha256(join(dir, 'final.zkey')) },
    });
    expect(verifiedFinal).toMatchObject({ valid: true, circuitHash: init.circuitHash });
    expect(verifiedFinal.contributions).toEqual([
      ...(verified.contributions as object[]),
      {
        index: 4,
        name: 'final beacon',
        hash: finalized.contributionHash,
        beacon: { hash: (finalized.beacon as { hash: string }).hash, iterationsExp: 10 },
      },
    ]);
  });

  it('refuses a contribution file altered after the fact (exit 1, valid: false), and an existing output', async () => {
    const tampered = join(dir, 'tampered.zkey');
    copyFileSync(join(dir, '0003.zkey'), tampered);
    const bytes = readFileSync(tampered);
    // One byte of the last point of the H section (the file's tail), as a careless or hostile party would.
    bytes[statSync(tampered).size - 40] ^= 0x01;
    writeFileSync(tampered, bytes);
    const result = await ceremonyCli(['verify', '--in', tampered, '--ptau', REHEARSAL_PTAU]);
    expect(result.code).toBe(1);
    const out = JSON.parse(result.stdout.trim()) as Record<string, unknown>;
    expect(out).toMatchObject({ valid: false, zkey: tampered, reason: expect.any(String) });
    expect(out.contributions).toBeUndefined();

    const again = await ceremonyCli([
      'contribute',
      '--in',
      join(dir, '0002.zkey'),
      '--out',
      join(dir, '0003.zkey'),
      '--name',
      'x',
    ]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/0003\.zkey exists/);
  });

  it('makes a key of its own: a production start no longer asks for ZK_TEST_SETUP_ALLOWED', async () => {
    const own = join(dir, 'verification_key.json');
    expect(sha256(own)).not.toBe(sha256(join(COMMITTED, 'verification_key.json')));
    // dist/main.js with exactly these variables: it still exits 1 (JWT_SECRET and the other
    // production settings are missing), and says so in one run; the trusted setup is not among them.
    const production = (key: string) =>
      run(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
        ...SERVICE_PROCESS_ENV,
        // As an operator at a terminal reads it: one line a setting to fix.
        LOG_FORMAT: 'pretty',
        APP_MODE: 'production',
        DATA_DIR: dir,
        PORT: '0',
        ZK_VERIFICATION_KEY_PATH: key,
        ZK_PROVING_KEY_PATH: join(dir, 'final.zkey'),
      });
    const setupLines = (output: string) =>
      output.split('\n').filter((line) => line.includes('ZK_TEST_SETUP_ALLOWED'));
    const ceremony = await production(own);
    expect(ceremony.code).toBe(1);
    expect(ceremony.stdout + ceremony.stderr).toMatch(/JWT_SECRET/);
    expect(setupLines(ceremony.stdout + ceremony.stderr)).toEqual([]);
    const testSetup = await production(join(COMMITTED, 'verification_key.json'));
    expect(testSetup.code).toBe(1);
    expect(setupLines(testSetup.stdout + testSetup.stderr)).toEqual([
      expect.stringMatching(/^ {2}ZK_TEST_SETUP_ALLOWED must be true/),
    ]);
  });

  it('makes a one-person phase 1 of its own (init --new-ptau, the power a circuit of one constraint needs) that verify accepts', async () => {
    const own = mkdtempSync(join(tmpdir(), 'cgk-new-ptau-'));
    try {
      // x * y === z: one constraint, compiled by circom2 as init compiles the committed circuit.
      writeFileSync(
        join(own, 'tiny.circom'),
        'pragma circom 2.0.0;\ntemplate Tiny() { signal input x; signal input y; signal output z; z <== x * y; }\ncomponent main = Tiny();\n',
      );
      const circom = require.resolve('circom2/cli.js', { paths: [ROOT] });
      const compiled = await run(
        process.execPath,
        [circom, join(own, 'tiny.circom'), '--r1cs', '-o', own],
        {},
      );
      expect(compiled.code).toBe(0);
      const r1cs = join(own, 'tiny.r1cs');
      const ptau = join(own, 'phase1.ptau');
      const init = await ceremonyCli([
        'init',
        '--r1cs',
        r1cs,
        '--new-ptau',
        ptau,
        '--out',
        join(own, '0000.zkey'),
      ]);
      expect(init.code).toBe(0);
      expect(JSON.parse(init.stdout.trim())).toMatchObject({
        ptau,
        phase1: expect.stringMatching(/one local contributor, power 2: test only/),
        constraints: 1,
      });
      const verified = await ceremonyCli([
        'verify',
        '--in',
        join(own, '0000.zkey'),
        '--ptau',
        ptau,
        '--r1cs',
        r1cs,
      ]);
      expect(verified.code).toBe(0);
      expect(JSON.parse(verified.stdout.trim())).toMatchObject({ valid: true, contributions: [] });
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('proves a credential with the final key (committed wasm); the service on the ceremony keys opens a session, and refuses a proof of the test setup', async () => {
    chain = await startComplianceDevnet();
    const zkeyPath = join(dir, 'final.zkey');
    const vkeyPath = join(dir, 'verification_key.json');
    t = await createTestApp({
      env: { ...chain.env, ZK_PROVING_KEY_PATH: zkeyPath, ZK_VERIFICATION_KEY_PATH: vkeyPath },
    });
    kit = await openCredentialKit(t, chain);
    const token = await login(t, await t.createAccount());

    // The service hands wallet holders the ceremony's proving key.
    const artifacts = (await request(t.server).get('/verify/artifacts').expect(200)).body;
    expect(artifacts.zkey.sha256).toBe(sha256(zkeyPath));
    expect(artifacts.verificationKey.sha256).toBe(sha256(vkeyPath));

    const wallet = Wallet.createRandom().address;
    const credential = await kit.issue(wallet);
    const prove = async (zkey: string) => {
      const challenge = (await getChallenge(t!, token, wallet).expect(200)).body.challenge;
      const wasmPath = join(COMMITTED, 'compliance_credential.wasm');
      return proveCredential(credential, { challenge }, { wasmPath, zkeyPath: zkey });
    };

    // A proof of the test setup's key does not verify against the ceremony's.
    const old = await prove(join(COMMITTED, 'compliance_credential.zkey'));
    const refused = await postVerify(t, token, {
      walletAddress: wallet,
      proof: old.proof,
      publicSignals: old.publicSignals,
    }).expect(400);
    expect(refused.body).toMatchObject({ code: 'PROOF_INVALID' });
    expect(await chain.isActive(wallet)).toBe(false);

    const proof = await prove(zkeyPath);
    const vkey = JSON.parse(readFileSync(vkeyPath, 'utf8')) as unknown;
    await expect(
      withBn128Curve(() => loadSnarkjs().groth16.verify(vkey, proof.publicSignals, proof.proof)),
    ).resolves.toBe(true);
    const opened = await postVerify(t, token, {
      walletAddress: wallet,
      proof: proof.proof,
      publicSignals: proof.publicSignals,
    }).expect(200);
    expect(opened.body).toMatchObject({ verified: true, issuer: { name: 'default' } });
    expect(await chain.isActive(wallet)).toBe(true);
  });
});
