import { Wallet } from 'ethers';
import {
  generateComplianceProof,
  GeneratedComplianceProof,
} from '../src/compliance/zk/proof-generator';
import { createTestApp, TestApp } from './helpers/app';
import { createApiKey, login } from './helpers/auth';
import {
  ComplianceDevnet,
  postRegister,
  postVerify,
  startComplianceDevnet,
} from './helpers/compliance';

const body = (wallet: string, p: GeneratedComplianceProof) => ({
  walletAddress: wallet,
  proof: p.proof,
  publicSignals: p.publicSignals,
});

describe('POST /verify: zero-knowledge compliance proofs open sessions (demo mode)', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env });
    token = await login(t, await t.createAccount());
    otherToken = await login(t, await t.createAccount());
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it('a real proof activates the session; its replay (even re-proved, same nullifier) is refused with 409', async () => {
    const wallet = chain.wallets[5].address;
    let started = Date.now();
    const proof = await generateComplianceProof({ wallet });
    console.info(`proof generated in ${Date.now() - started} ms`);

    started = Date.now();
    const res = await postVerify(t, token, body(wallet, proof)).expect(200);
    console.info(`POST /verify (verify + activation mined) answered in ${Date.now() - started} ms`);
    expect(res.body).toMatchObject({
      authMethod: 'jwt',
      verified: true,
      walletAddress: wallet,
      nullifier: proof.nullifier,
    });
    expect(await chain.activeUntil(wallet)).toBe(res.body.activeUntilUnix);
    expect(await chain.isActive(wallet)).toBe(true);

    const replay = await postVerify(t, token, body(wallet, proof), '/api/v1').expect(409);
    expect(replay.body).toMatchObject({ code: 'PROOF_REPLAYED', phase: 'preflight' });
    // A fresh proof of the same credential differs byte for byte but carries the same nullifier.
    const reproved = await generateComplianceProof({
      wallet,
      credentialSecret: proof.credentialSecret,
    });
    expect(reproved.proof.pi_a).not.toEqual(proof.proof.pi_a);
    await postVerify(t, token, body(wallet, reproved)).expect(409);
  });

  it('refuses a tampered proof, a proof for another wallet and a tampered public signal with 400 PROOF_INVALID', async () => {
    const wallet = chain.wallets[6].address;
    const proof = await generateComplianceProof({ wallet });
    const tampered = structuredClone(proof);
    tampered.proof.pi_a[0] = (BigInt(tampered.proof.pi_a[0]) + 1n).toString();
    const a = await postVerify(t, token, body(wallet, tampered)).expect(400);
    expect(a.body).toMatchObject({ code: 'PROOF_INVALID', phase: 'validation' });
    expect(a.body.hint).toContain('POST /verify');

    const other = Wallet.createRandom().address;
    expect((await postVerify(t, token, body(other, proof)).expect(400)).body.code).toBe(
      'PROOF_INVALID',
    );

    const signals = [...proof.publicSignals];
    signals[0] = (BigInt(signals[0]) + 1n).toString(); // another nullifier: the pairing fails
    expect(
      (await postVerify(t, token, { ...body(wallet, proof), publicSignals: signals }).expect(400))
        .body.code,
    ).toBe('PROOF_INVALID');

    expect(await chain.isActive(wallet)).toBe(false);
    // None of the refusals spent the nullifier: the genuine proof still works.
    await postVerify(t, token, body(wallet, proof)).expect(200);
  });

  it('lets exactly one of several concurrent submissions of one credential through', async () => {
    const wallet = Wallet.createRandom().address;
    const proof = await generateComplianceProof({ wallet });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => postVerify(t, token, body(wallet, proof))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it('validates the shape of proof and publicSignals (bounded) before authenticating', async () => {
    const wallet = chain.wallets[7].address;
    const proof = await generateComplianceProof({ wallet });
    const noAuth = { bearer: undefined };
    const invalid = async (b: object) => (await postVerify(t, noAuth, b).expect(400)).body;

    expect(
      (await invalid({ ...body(wallet, proof), publicSignals: [...proof.publicSignals, '1'] }))
        .code,
    ).toBe('INVALID_PARAMS');
    expect(
      (await invalid({ ...body(wallet, proof), publicSignals: ['1'.repeat(79), '1', '2', '3'] }))
        .code,
    ).toBe('INVALID_PARAMS');
    expect(
      (await invalid({ ...body(wallet, proof), proof: { ...proof.proof, extra: [] } })).code,
    ).toBe('INVALID_PARAMS');
    expect(
      (await invalid({ ...body(wallet, proof), proof: { ...proof.proof, pi_b: [['1', '2']] } }))
        .code,
    ).toBe('INVALID_PARAMS');
    const missing = await invalid({ walletAddress: wallet });
    expect([...new Set(missing.details.map((d: { field: string }) => d.field))].sort()).toEqual([
      'proof',
      'publicSignals',
    ]);
    expect((await invalid({ ...body(wallet, proof), walletAddress: '0xnope' })).code).toBe(
      'INVALID_ADDRESS',
    );
    await postVerify(t, noAuth, body(wallet, proof)).expect(401);
  });

  it('requires the compliance:verify scope of API keys', async () => {
    const wallet = Wallet.createRandom().address;
    const proof = await generateComplianceProof({ wallet });
    const onboardingOnly = await createApiKey(t, token, ['onboarding:write']);
    expect(
      (await postVerify(t, { apiKey: onboardingOnly.key }, body(wallet, proof)).expect(403)).body
        .code,
    ).toBe('API_KEY_SCOPE_MISSING');
    const key = await createApiKey(t, token, ['compliance:verify']);
    expect(
      (await postVerify(t, { apiKey: key.key }, body(wallet, proof)).expect(200)).body.authMethod,
    ).toBe('api_key');
  });

  it('refuses a wallet bound to another account (403) without spending the nullifier', async () => {
    const wallet = chain.wallets[8].address;
    await postRegister(t, otherToken, { walletAddress: wallet }).expect(200);
    const proof = await generateComplianceProof({ wallet });
    const res = await postVerify(t, token, body(wallet, proof)).expect(403);
    expect(res.body.code).toBe('INSTITUTION_OWNERSHIP_MISMATCH');
    await postVerify(t, otherToken, body(wallet, proof)).expect(200);
  });

  it('releases the nullifier when the activation fails, so the same proof works on retry', async () => {
    const wallet = Wallet.createRandom().address;
    const proof = await generateComplianceProof({ wallet });
    const broken = await createTestApp({
      db: t.db,
      env: { ...chain.env, ATTESTER_PRIVATE_KEY: chain.wallets[9].privateKey },
    });
    try {
      const failed = await postVerify(broken, token, body(wallet, proof)).expect(502);
      expect(failed.body).toMatchObject({ code: 'BROADCAST_FAILED', phase: 'broadcast' });
    } finally {
      await broken.close();
    }
    const retried = await postVerify(t, token, body(wallet, proof)).expect(200);
    expect(await chain.activeUntil(wallet)).toBe(retried.body.activeUntilUnix);
  });
});
