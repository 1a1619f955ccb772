import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { VerifyChallenge } from '../../src/compliance/verification/verify-challenge.entity';
import { PUBLIC_SIGNAL } from '../../src/compliance/zk';
import type { CredentialFile } from '../../src/compliance/zk/credential-file';
import { mintStandaloneCredential, proveCredential } from '../../src/compliance/zk/proof-generator';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import {
  ComplianceDevnet,
  CredentialKit,
  getChallenge,
  openCredentialKit,
  postRegister,
  postVerify,
  startComplianceDevnet,
} from '../helpers/compliance';

// Real Groth16 proofs: each takes seconds (15 s measured with the 2 shared cores under load).
jest.setTimeout(180_000);

describe('POST /verify: zero-knowledge compliance proofs open sessions (demo mode)', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let kit: CredentialKit;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env });
    kit = await openCredentialKit(t, chain);
    token = await login(t, await t.createAccount());
    otherToken = await login(t, await t.createAccount());
  }, 120_000);
  afterAll(async () => {
    await kit?.close();
    await t?.close();
    await chain?.close();
  });

  /** A credential for a fresh random wallet (the issuer's tree holds it; its root is current). */
  const credentialFor = (wallet = Wallet.createRandom().address) => kit.issue(wallet);

  it('a real proof activates the session; its replay (even re-proved for the same challenge) is refused with 409', async () => {
    const credential = await credentialFor(chain.wallets[5].address);
    let started = Date.now();
    const body = await kit.prove(token, credential);
    console.info(`challenge + proof generated in ${Date.now() - started} ms`);

    started = Date.now();
    const res = await postVerify(t, token, body).expect(200);
    console.info(`POST /verify (verify + activation mined) answered in ${Date.now() - started} ms`);
    expect(res.body).toMatchObject({
      authMethod: 'jwt',
      verified: true,
      walletAddress: credential.wallet,
      nullifier: body.publicSignals[PUBLIC_SIGNAL.nullifier],
      credentialExpiresAt: credential.expiresAt,
    });
    expect(await chain.activeUntil(credential.wallet)).toBe(res.body.activeUntilUnix);
    expect(await chain.isActive(credential.wallet)).toBe(true);

    const replay = await postVerify(t, token, body, '/api/v1').expect(409);
    expect(replay.body).toMatchObject({ code: 'PROOF_REPLAYED', phase: 'preflight' });
    expect(replay.body.hint).toContain('GET /verify/challenge');
    // A fresh proof for the same challenge differs byte for byte but the challenge is spent.
    const reproved = await proveCredential(credential, {
      challenge: body.publicSignals[PUBLIC_SIGNAL.challenge],
    });
    expect(reproved.proof.pi_a).not.toEqual(body.proof.pi_a);
    await postVerify(t, token, { ...body, proof: reproved.proof }).expect(409);
  });

  it('refuses a tampered proof, a proof for another wallet and a tampered public signal with 400 PROOF_INVALID', async () => {
    const credential = await credentialFor(chain.wallets[6].address);
    const body = await kit.prove(token, credential);
    const tampered = structuredClone(body);
    tampered.proof.pi_a[0] = (BigInt(tampered.proof.pi_a[0]) + 1n).toString();
    const a = await postVerify(t, token, tampered).expect(400);
    expect(a.body).toMatchObject({ code: 'PROOF_INVALID', phase: 'validation' });
    expect(a.body.hint).toContain('POST /verify');

    const other = Wallet.createRandom().address;
    expect(
      (await postVerify(t, token, { ...body, walletAddress: other }).expect(400)).body.code,
    ).toBe('PROOF_INVALID');

    const signals = [...body.publicSignals];
    signals[0] = (BigInt(signals[0]) + 1n).toString(); // another nullifier: the pairing fails
    expect(
      (await postVerify(t, token, { ...body, publicSignals: signals }).expect(400)).body.code,
    ).toBe('PROOF_INVALID');

    expect(await chain.isActive(credential.wallet)).toBe(false);
    // None of the refusals spent the challenge: the genuine proof still works.
    await postVerify(t, token, body).expect(200);
  });

  it('lets exactly one of several concurrent submissions of one proof through', async () => {
    const body = await kit.prove(token, await credentialFor());
    const results = await Promise.all(Array.from({ length: 5 }, () => postVerify(t, token, body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  describe('challenges', () => {
    let credential: CredentialFile;
    beforeAll(async () => {
      credential = await credentialFor();
    });

    it('GET /verify/challenge (both paths) issues a fresh 10-minute challenge bound to the wallet', async () => {
      const a = await getChallenge(t, token, credential.wallet.toLowerCase()).expect(200);
      const b = await getChallenge(t, token, credential.wallet, '/api/v1').expect(200);
      expect(a.body).toMatchObject({
        authMethod: 'jwt',
        walletAddress: credential.wallet,
        challenge: expect.stringMatching(/^[1-9][0-9]*$/),
      });
      expect(b.body.challenge).not.toBe(a.body.challenge);
      expect(a.body.expiresAtUnix - Date.now() / 1000).toBeGreaterThan(590);
      expect(a.body.expiresAtUnix - Date.now() / 1000).toBeLessThanOrEqual(600);
      expect(new Date(a.body.expiresAt).getTime()).toBe(a.body.expiresAtUnix * 1000);
    });

    it('validates the wallet before authenticating, and needs compliance:verify', async () => {
      const noAuth = { bearer: undefined };
      const missing = await getChallenge(t, noAuth, undefined).expect(400);
      expect(missing.body).toMatchObject({ code: 'INVALID_ADDRESS', phase: 'validation' });
      expect(missing.body.details[0]).toMatchObject({ field: 'walletAddress' });
      expect((await getChallenge(t, noAuth, '0x1234').expect(400)).body.code).toBe(
        'INVALID_ADDRESS',
      );
      await getChallenge(t, noAuth, credential.wallet).expect(401);
      const preflightOnly = await createApiKey(t, token, ['defi:preflight']);
      expect(
        (await getChallenge(t, { apiKey: preflightOnly.key }, credential.wallet).expect(403)).body
          .code,
      ).toBe('API_KEY_SCOPE_MISSING');
    });

    const refusedAsStale = async (body: object, auth = token) => {
      const res = await postVerify(t, auth, body).expect(400);
      expect(res.body).toMatchObject({ code: 'PROOF_INVALID', phase: 'validation' });
      expect(res.body.hint).toContain('GET /verify/challenge');
    };

    it('refuses an unknown challenge, one of another account, and an expired one (400, hint: new challenge)', async () => {
      const unknown = await proveCredential(credential, { challenge: '777' });
      await refusedAsStale({
        walletAddress: credential.wallet,
        proof: unknown.proof,
        publicSignals: unknown.publicSignals,
      });

      const foreign = await kit.prove(otherToken, credential);
      await refusedAsStale(foreign);

      const body = await kit.prove(token, credential);
      await t.app
        .get(DataSource)
        .getRepository(VerifyChallenge)
        .update(
          { challenge: body.publicSignals[PUBLIC_SIGNAL.challenge] },
          { expiresAt: Math.floor(Date.now() / 1000) - 1 },
        );
      await refusedAsStale(body);
      expect(await chain.isActive(credential.wallet)).toBe(false);
    });

    it('refuses a challenge issued for another wallet', async () => {
      const res = await getChallenge(t, token, Wallet.createRandom().address).expect(200);
      const proof = await proveCredential(credential, { challenge: res.body.challenge });
      await refusedAsStale({
        walletAddress: credential.wallet,
        proof: proof.proof,
        publicSignals: proof.publicSignals,
      });
    });

    it("refuses a proof whose `now` is more than 5 minutes off the server's clock", async () => {
      const res = await getChallenge(t, token, credential.wallet).expect(200);
      const proof = await proveCredential(credential, {
        challenge: res.body.challenge,
        now: Math.floor(Date.now() / 1000) - 400,
      });
      const refused = await postVerify(t, token, {
        walletAddress: credential.wallet,
        proof: proof.proof,
        publicSignals: proof.publicSignals,
      }).expect(400);
      expect(refused.body).toMatchObject({ code: 'PROOF_INVALID' });
      expect(refused.body.message).toMatch(/server clock/);
    });

    it('refuses a credential whose root the service never accepted (another tree)', async () => {
      const outsider = await mintStandaloneCredential({ wallet: credential.wallet });
      const body = await kit.prove(token, outsider);
      const res = await postVerify(t, token, body).expect(400);
      expect(res.body.code).toBe('PROOF_INVALID');
      expect(res.body.hint).toMatch(/revoked.*stale/);
    });
  });

  it('validates the shape of proof and publicSignals (bounded, strict) before authenticating', async () => {
    const body = await kit.prove(token, await credentialFor(chain.wallets[7].address));
    const noAuth = { bearer: undefined };
    const invalid = async (b: object) => (await postVerify(t, noAuth, b).expect(400)).body;

    expect((await invalid({ ...body, publicSignals: [...body.publicSignals, '1'] })).code).toBe(
      'INVALID_PARAMS',
    );
    expect(
      (await invalid({ ...body, publicSignals: ['1'.repeat(79), ...body.publicSignals.slice(1)] }))
        .code,
    ).toBe('INVALID_PARAMS');
    expect((await invalid({ ...body, proof: { ...body.proof, extra: [] } })).code).toBe(
      'INVALID_PARAMS',
    );
    expect((await invalid({ ...body, proof: { ...body.proof, pi_b: [['1', '2']] } })).code).toBe(
      'INVALID_PARAMS',
    );
    // Strict: projective z, and a coordinate at or above the base field, are shapes we refuse.
    const z = await invalid({ ...body, proof: { ...body.proof, pi_a: ['1', '2', '2'] } });
    expect(z).toMatchObject({ code: 'INVALID_PARAMS' });
    expect(JSON.stringify(z.details)).toContain('pi_a');
    const missing = await invalid({ walletAddress: body.walletAddress });
    expect([...new Set(missing.details.map((d: { field: string }) => d.field))].sort()).toEqual([
      'proof',
      'publicSignals',
    ]);
    expect((await invalid({ ...body, walletAddress: '0xnope' })).code).toBe('INVALID_ADDRESS');
    await postVerify(t, noAuth, body).expect(401);
  });

  it('requires the compliance:verify scope of API keys', async () => {
    const credential = await credentialFor();
    const onboardingOnly = await createApiKey(t, token, ['onboarding:write']);
    const key = await createApiKey(t, token, ['compliance:verify']);
    const body = await kit.prove({ apiKey: key.key }, credential);
    expect((await postVerify(t, { apiKey: onboardingOnly.key }, body).expect(403)).body.code).toBe(
      'API_KEY_SCOPE_MISSING',
    );
    expect((await postVerify(t, { apiKey: key.key }, body).expect(200)).body.authMethod).toBe(
      'api_key',
    );
  });

  it('refuses a wallet bound to another account (403) without spending the challenge', async () => {
    const credential = await credentialFor(chain.wallets[8].address);
    await postRegister(t, otherToken, { walletAddress: credential.wallet }).expect(200);
    const body = await kit.prove(token, credential);
    const res = await postVerify(t, token, body).expect(403);
    expect(res.body.code).toBe('INSTITUTION_OWNERSHIP_MISMATCH');
    await postRegister(t, token, { walletAddress: credential.wallet }).expect(200);
    await postVerify(t, token, body).expect(200);
  });

  it('releases the challenge when the activation fails, so the same proof works on retry', async () => {
    const body = await kit.prove(token, await credentialFor());
    const broken = await createTestApp({
      db: t.db,
      env: { ...chain.env, ATTESTER_PRIVATE_KEY: chain.wallets[9].privateKey },
    });
    try {
      const failed = await postVerify(broken, token, body).expect(502);
      expect(failed.body).toMatchObject({ code: 'BROADCAST_FAILED', phase: 'broadcast' });
    } finally {
      await broken.close();
    }
    const retried = await postVerify(t, token, body).expect(200);
    expect(await chain.activeUntil(body.walletAddress)).toBe(retried.body.activeUntilUnix);
  });
});
