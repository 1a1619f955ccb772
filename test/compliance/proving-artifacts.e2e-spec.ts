import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Wallet } from 'ethers';
import { proveCredential } from '../../src/compliance/zk/proof-generator';
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

/** Issue 40 item 3: the circuit's proving files, served pinned by SHA-256 (GET /verify/artifacts, /zk/). */
jest.setTimeout(180_000);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const committed = (file: string) =>
  readFileSync(join(__dirname, '..', '..', 'circuits', 'build', file));

describe('Proving artifacts: GET /verify/artifacts and /zk/<sha256>/<file>', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let kit: CredentialKit;
  let dir: string;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env });
    kit = await openCredentialKit(t, chain);
    dir = mkdtempSync(join(tmpdir(), 'cgk-artifacts-'));
  }, 120_000);
  afterAll(async () => {
    await kit?.close();
    await t?.close();
    await chain?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const download = async (url: string) =>
    (
      await request(t.server)
        .get(url)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200)
    ).body as Buffer;

  it('lists the wasm and zkey with their SHA-256 (no credentials needed), serves them at those URLs, and a proof made from the downloads opens a session', async () => {
    const listed = await request(t.server).get('/verify/artifacts').expect(200);
    const wasm = committed('compliance_credential.wasm');
    const zkey = committed('compliance_credential.zkey');
    expect(listed.body).toEqual({
      circuit: 'compliance_credential',
      version: expect.stringMatching(/^[0-9a-f]{16}$/),
      wasm: {
        file: 'compliance_credential.wasm',
        url: `/zk/${sha256(wasm)}/compliance_credential.wasm`,
        sha256: sha256(wasm),
        bytes: wasm.length,
      },
      zkey: {
        file: 'compliance_credential.zkey',
        url: `/zk/${sha256(zkey)}/compliance_credential.zkey`,
        sha256: sha256(zkey),
        bytes: zkey.length,
      },
      verificationKey: { sha256: sha256(committed('verification_key.json')) },
    });
    expect((await request(t.server).get('/api/v1/verify/artifacts').expect(200)).body).toEqual(
      listed.body,
    );

    const res = await request(t.server).get(listed.body.zkey.url).expect(200);
    expect(res.headers['cache-control']).toMatch(/immutable/);
    const wasmBytes = await download(listed.body.wasm.url);
    const zkeyBytes = await download(listed.body.zkey.url);
    expect(sha256(wasmBytes)).toBe(listed.body.wasm.sha256);
    expect(sha256(zkeyBytes)).toBe(listed.body.zkey.sha256);

    const wasmPath = join(dir, 'downloaded.wasm');
    const zkeyPath = join(dir, 'downloaded.zkey');
    writeFileSync(wasmPath, wasmBytes);
    writeFileSync(zkeyPath, zkeyBytes);
    const token = await login(t, await t.createAccount());
    const wallet = Wallet.createRandom().address;
    const credential = await kit.issue(wallet);
    const challenge = (await getChallenge(t, token, wallet).expect(200)).body.challenge;
    const proof = await proveCredential(credential, { challenge }, { wasmPath, zkeyPath });
    const opened = await postVerify(t, token, {
      walletAddress: wallet,
      proof: proof.proof,
      publicSignals: proof.publicSignals,
    }).expect(200);
    expect(opened.body).toMatchObject({ verified: true, issuer: { name: 'default' } });
  });

  it('answers 404 NOT_FOUND for a file it does not serve (another hash, another name)', async () => {
    const listed = (await request(t.server).get('/verify/artifacts').expect(200)).body;
    for (const url of [
      `/zk/${'0'.repeat(64)}/compliance_credential.zkey`,
      listed.zkey.url.replace('compliance_credential.zkey', 'verification_key.json'),
      `/zk/${listed.zkey.sha256}/..%2F..%2Fpackage.json`,
    ]) {
      const res = await request(t.server).get(url).expect(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', phase: 'validation' });
    }
  });

  it('answers an unsatisfiable Range with 416 and Content-Range bytes */<size>, a satisfiable one with 206, unauthenticated (issue 52)', async () => {
    const listed = (await request(t.server).get('/verify/artifacts').expect(200)).body;
    const size = listed.zkey.bytes as number;
    for (const range of [
      `bytes=${size + 1}-`,
      `bytes=${size}-`,
      `bytes=${size + 10}-${size + 20}`,
    ]) {
      const res = await request(t.server).get(listed.zkey.url).set('Range', range).expect(416);
      expect(res.headers['content-range']).toBe(`bytes */${size}`);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control'] ?? '').not.toMatch(/immutable/);
      expect(res.body).toMatchObject({
        error: 'Range Not Satisfiable',
        code: 'RANGE_NOT_SATISFIABLE',
        phase: 'validation',
        hint: expect.stringContaining('GET /verify/artifacts'),
      });
    }
    const part = await request(t.server)
      .get(listed.wasm.url)
      .set('Range', 'bytes=0-3')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(206);
    expect(part.headers['content-range']).toBe(`bytes 0-3/${listed.wasm.bytes}`);
    expect(part.body).toEqual(committed('compliance_credential.wasm').subarray(0, 4));
    // The client's own precondition: 412 without a body, not a 5xx.
    await request(t.server).get(listed.zkey.url).set('If-Match', '"not-this-file"').expect(412);
  });
});
