/**
 * The rules every activation path shares (SessionAdmission; issue 52 items 2, 7 and 8, issue 53
 * item 2), on the demo, attestation and proof paths alike:
 * - a repeat sends nothing while the session covers at least half its length (or already reaches
 *   the presented source's expiry): the attester's nonce moves once for five calls;
 * - activation transactions per wallet are limited: 429 ACTIVATION_RATE_LIMITED with Retry-After;
 * - a listed wallet is refused with or without a session, the refusal ends the session on chain
 *   (as the watcher would, reason sanctioned), and the sessions endpoint says sanctioned and
 *   inactive at once; the watcher is off here (SCREENING_INTERVAL_MS=0);
 * - a refused activation binds nothing.
 */
import { Contract, Wallet } from 'ethers';
import request from 'supertest';
import { COMPLIANCE_REGISTRY } from '../../src/chain/abi/compliance-registry';
import {
  issueTestAttestation,
  testAttesterKey,
  TestAttestation,
} from '../../src/chain/devnet/test-attester';
import { sanctionsCommand } from '../../src/cli/sanctions-command';
import { WalletsService } from '../../src/compliance/wallets/wallets.service';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import {
  ComplianceDevnet,
  CredentialKit,
  openCredentialKit,
  postActivateDemo,
  postVerify,
  startComplianceDevnet,
} from '../helpers/compliance';

// The proof path proves with real Groth16 (seconds each on the shared cores).
jest.setTimeout(240_000);

describe('SessionAdmission: the rules of every activation path', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let kit: CredentialKit;
  let token: string;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: { ...chain.env, SCREENING_INTERVAL_MS: '0' } });
    kit = await openCredentialKit(t, chain);
    token = await login(t, await t.createAccount());
  }, 120_000);
  afterAll(async () => {
    await kit?.close();
    await t?.close();
    await chain?.close();
  });

  /** Transactions the attester (devnet account 0) has had mined: its nonce. */
  const attesterNonce = () =>
    chain.provider.getTransactionCount(chain.wallets[0].address, 'latest');
  const attest = (a: TestAttestation) =>
    issueTestAttestation(
      new Wallet(testAttesterKey(), chain.provider),
      chain.deployment.compliance,
      a,
    );
  const activateByAttestation = (app: TestApp, walletAddress: string) =>
    request(app.server)
      .post('/api/v1/onboarding/activate-session-attestation')
      .set('Authorization', `Bearer ${token}`)
      .send({ walletAddress });
  const sessionOf = (walletAddress: string) =>
    request(t.server)
      .get(`/api/v1/compliance/sessions/${walletAddress}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
  const sanctions = async (verb: 'add' | 'remove', address: string) =>
    sanctionsCommand(verb, [address, '--rpc', chain.rpcUrl], {});
  const registry = () =>
    new Contract(
      chain.deployment.contracts.complianceRegistry,
      COMPLIANCE_REGISTRY,
      chain.wallets[0],
    );

  /** Five calls: one transaction, then the same session answered as it is. */
  function expectOneTransaction(answers: Array<Record<string, unknown>>) {
    expect(answers[0]).toMatchObject({
      alreadyActive: false,
      txHash: expect.stringMatching(/^0x/),
    });
    for (const again of answers.slice(1))
      expect(again).toMatchObject({
        alreadyActive: true,
        txHash: null,
        blockNumber: null,
        activeUntil: answers[0].activeUntil,
        activeUntilUnix: answers[0].activeUntilUnix,
      });
  }

  it('repeats send nothing on every path while the session covers at least half its length: the attester nonce moves once per path', async () => {
    const demoWallet = Wallet.createRandom().address;
    let before = await attesterNonce();
    const demo = [];
    for (let i = 0; i < 5; i++)
      demo.push((await postActivateDemo(t, token, demoWallet).expect(200)).body);
    expect(await attesterNonce()).toBe(before + 1);
    expectOneTransaction(demo);

    const attestedWallet = Wallet.createRandom().address;
    const uid = await attest({ kind: 'account', wallet: attestedWallet });
    before = await attesterNonce();
    const attested = [];
    for (let i = 0; i < 5; i++)
      attested.push((await activateByAttestation(t, attestedWallet).expect(200)).body);
    expect(await attesterNonce()).toBe(before + 1);
    expectOneTransaction(attested);
    for (const answer of attested)
      expect(answer.source).toEqual({ kind: 'attestation', name: 'verified-account', uid });

    // The demo session of the attested wallet's neighbour path: a session opened one way is
    // also answered as it is on another (here: a proof for the demo wallet).
    const credential = await kit.issue(demoWallet);
    before = await attesterNonce();
    const proven = [];
    for (let i = 0; i < 2; i++)
      proven.push(
        (await postVerify(t, token, await kit.prove(token, credential)).expect(200)).body,
      );
    expect(await attesterNonce()).toBe(before);
    for (const answer of proven)
      expect(answer).toMatchObject({
        verified: true,
        alreadyActive: true,
        txHash: null,
        activeUntilUnix: demo[0].activeUntilUnix,
      });

    const provenWallet = Wallet.createRandom().address;
    const own = await kit.issue(provenWallet);
    before = await attesterNonce();
    const first = (await postVerify(t, token, await kit.prove(token, own)).expect(200)).body;
    const second = (await postVerify(t, token, await kit.prove(token, own)).expect(200)).body;
    expect(await attesterNonce()).toBe(before + 1);
    expectOneTransaction([first, second]);
  });

  it('a session capped by its attestation is not renewed by repeats: a renewal would gain nothing', async () => {
    const wallet = Wallet.createRandom().address;
    await attest({ kind: 'account', wallet, expiresIn: 600 });
    const before = await attesterNonce();
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push((await activateByAttestation(t, wallet).expect(200)).body);
    expect(await attesterNonce()).toBe(before + 1);
    expectOneTransaction(answers);
  });

  it('activations per wallet are limited on every path: the third in the hour is 429 ACTIVATION_RATE_LIMITED with Retry-After, nothing sent', async () => {
    const limited = await createTestApp({
      db: t.db,
      env: { ...chain.env, SCREENING_INTERVAL_MS: '0', ACTIVATIONS_PER_WALLET_PER_HOUR: '2' },
    });
    try {
      const wallet = Wallet.createRandom().address;
      await attest({ kind: 'account', wallet });
      await postActivateDemo(limited, token, wallet).expect(200);
      await (await registry().revoke(wallet)).wait();
      await activateByAttestation(limited, wallet).expect(200);
      await (await registry().revoke(wallet)).wait();
      const before = await attesterNonce();
      for (const refused of [
        await postActivateDemo(limited, token, wallet).expect(429),
        await activateByAttestation(limited, wallet).expect(429),
      ]) {
        expect(refused.body).toMatchObject({
          code: 'ACTIVATION_RATE_LIMITED',
          phase: 'preflight',
          retryAfter: expect.any(Number),
          details: [{ limit: 2, windowSeconds: 3600 }],
        });
        expect(refused.body.retryAfter).toBeGreaterThan(3500);
        expect(refused.headers['retry-after']).toBe(String(refused.body.retryAfter));
      }
      expect(await attesterNonce()).toBe(before);
      expect(await chain.isActive(wallet)).toBe(false);
    } finally {
      await limited.close();
    }
  });

  it('a listed wallet with an open session: sanctioned and inactive at once on the sessions endpoint; every path is 403 WALLET_SANCTIONED and the first refusal ends the session (session.revoked, sanctioned) without the watcher', async () => {
    const wallet = Wallet.createRandom().address;
    await attest({ kind: 'account', wallet });
    const opened = (await activateByAttestation(t, wallet).expect(200)).body;
    expect((await sessionOf(wallet)).body).toMatchObject({
      active: true,
      sanctioned: false,
      source: 'attester',
    });
    const credential = await kit.issue(wallet);
    const proof = await kit.prove(token, credential);

    await sanctions('add', wallet);
    try {
      // On chain the session is still open (no watcher); the service says what the hook does.
      expect(await chain.isActive(wallet)).toBe(true);
      expect((await sessionOf(wallet)).body).toMatchObject({
        active: false,
        sanctioned: true,
        activeUntil: opened.activeUntil,
        source: null,
      });

      const before = await attesterNonce();
      const refusals = [
        await postActivateDemo(t, token, wallet).expect(403),
        await activateByAttestation(t, wallet).expect(403),
        await postVerify(t, token, proof).expect(403),
      ];
      for (const refused of refusals)
        expect(refused.body).toMatchObject({ code: 'WALLET_SANCTIONED', phase: 'preflight' });
      // One revocation, by the first refusal; the chain agrees now.
      expect(await attesterNonce()).toBe(before + 1);
      expect(await chain.isActive(wallet)).toBe(false);
      const audit = await request(t.server)
        .get('/api/v1/audit-events')
        .query({ type: 'session.revoked' })
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(audit.body.items).toContainEqual(
        expect.objectContaining({
          actor: expect.objectContaining({ type: 'system' }),
          data: expect.objectContaining({ walletAddress: wallet, reason: 'sanctioned' }),
        }),
      );
    } finally {
      await sanctions('remove', wallet);
    }
    expect((await sessionOf(wallet)).body).toMatchObject({ active: false, sanctioned: false });
    expect((await postActivateDemo(t, token, wallet).expect(200)).body.alreadyActive).toBe(false);
  });

  it('a refused activation changes nothing: a listed or policy-refused unbound wallet stays unbound', async () => {
    const wallets = t.app.get(WalletsService);
    const listed = Wallet.createRandom().address;
    await attest({ kind: 'account', wallet: listed });
    await sanctions('add', listed);
    try {
      await postActivateDemo(t, token, listed).expect(403);
      await activateByAttestation(t, listed).expect(403);
      expect(await wallets.findByAddress(listed)).toBeNull();
    } finally {
      await sanctions('remove', listed);
    }

    // An account whose policy denies a country: a wallet without a country attestation is refused.
    const strict = await login(t, await t.createAccount());
    await request(t.server)
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${strict}`)
      .send({
        sources: { mode: 'any', names: [] },
        countries: { deny: ['KP'] },
        minSessionSeconds: 0,
      })
      .expect(200);
    const refusedWallet = Wallet.createRandom().address;
    const refused = await postActivateDemo(t, strict, refusedWallet).expect(403);
    expect(refused.body.code).toBe('COMPLIANCE_POLICY_REFUSED');
    expect(refused.body.details[0].rule).toBe('countries.unknown');
    expect(await wallets.findByAddress(refusedWallet)).toBeNull();
    expect(await chain.isActive(refusedWallet)).toBe(false);
  });
});
