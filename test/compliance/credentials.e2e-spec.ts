import { Wallet } from 'ethers';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { PUBLIC_SIGNAL } from '../../src/compliance/zk';
import { parseCredentialFile } from '../../src/compliance/zk/credential-file';
import { proveCredential } from '../../src/compliance/zk/proof-generator';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import {
  ComplianceDevnet,
  CredentialKit,
  getChallenge,
  openCredentialKit,
  postActivateDemo,
  postVerify,
  startComplianceDevnet,
} from '../helpers/compliance';
import { devnetRpc } from '../helpers/devnet-mining';
import { pollUntil } from '../helpers/wait';

/** Issue 18 acceptance: credentials that renew, expire and are revoked; sessions read on chain. */
// Real Groth16 proofs: each takes seconds (15 s measured with the 2 shared cores under load).
jest.setTimeout(180_000);

describe('Compliance credentials: fresh proofs, renewal, expiry, revocation (demo issuer CLI)', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let kit: CredentialKit;
  let token: string;
  let preflightKey: string;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env });
    kit = await openCredentialKit(t, chain);
    token = await login(t, await t.createAccount());
    preflightKey = (await createApiKey(t, token, ['defi:preflight'])).key;
  }, 120_000);
  afterAll(async () => {
    await kit?.close();
    await t?.close();
    await chain?.close();
  });

  const sessionOf = (address: string) =>
    request(t.server)
      .get(`/api/v1/compliance/sessions/${address}`)
      .set('X-API-Key', preflightKey)
      .expect(200)
      .then((res) => res.body);

  it('issue -> challenge -> prove -> verify opens a session; the same body again is 409; a new challenge answers the open session as it is, and renews it past half its length', async () => {
    const wallet = chain.wallets[1].address;
    const credential = await kit.issue(wallet);
    expect(await sessionOf(wallet)).toEqual({
      authMethod: 'api_key',
      address: wallet,
      active: false,
      sanctioned: false,
      activeUntil: null,
      source: null,
      chainTime: expect.any(Number),
    });

    const body = await kit.prove(token, credential);
    const opened = await postVerify(t, token, body).expect(200);
    expect(opened.body.activeUntilUnix).toBe(await chain.activeUntil(wallet));
    expect(await sessionOf(wallet)).toMatchObject({
      active: true,
      activeUntil: opened.body.activeUntil,
      source: 'credential',
    });

    expect((await postVerify(t, token, body).expect(409)).body.code).toBe('PROOF_REPLAYED');

    const repeat = await kit.prove(token, credential);
    expect(repeat.publicSignals[PUBLIC_SIGNAL.challenge]).not.toBe(
      body.publicSignals[PUBLIC_SIGNAL.challenge],
    );
    // More than half the session left: answered as it is, nothing sent (issue 52).
    const unchanged = await postVerify(t, token, repeat).expect(200);
    expect(unchanged.body).toMatchObject({
      alreadyActive: true,
      txHash: null,
      nullifier: opened.body.nullifier,
      activeUntilUnix: opened.body.activeUntilUnix,
    });
    // Past half its length (the chain's clock moved on): the next proof renews it on chain. The
    // chain goes back to now afterwards, so the other tests' credentials are not expired on it.
    const now = (await devnetRpc(chain.rpcUrl, 'evm_snapshot')) as string;
    try {
      await devnetRpc(chain.rpcUrl, 'evm_increaseTime', [13 * 3600]);
      await devnetRpc(chain.rpcUrl, 'evm_mine');
      const renewed = await postVerify(t, token, await kit.prove(token, credential)).expect(200);
      expect(renewed.body).toMatchObject({
        alreadyActive: false,
        nullifier: opened.body.nullifier,
      });
      expect(renewed.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(renewed.body.activeUntilUnix).toBeGreaterThan(opened.body.activeUntilUnix);
      expect(await chain.activeUntil(wallet)).toBe(renewed.body.activeUntilUnix);
    } finally {
      await devnetRpc(chain.rpcUrl, 'evm_revert', [now]);
      const latest = (await chain.provider.getBlock('latest'))!.timestamp;
      await devnetRpc(chain.rpcUrl, 'evm_setNextBlockTimestamp', [
        Math.max(Math.floor(Date.now() / 1000), latest + 1),
      ]);
      await devnetRpc(chain.rpcUrl, 'evm_mine');
    }
  });

  it('after `credentials revoke` the old credential file is refused, and the session it opened ends on chain', async () => {
    const wallet = chain.wallets[2].address;
    const credential = await kit.issue(wallet);
    await postVerify(t, token, await kit.prove(token, credential)).expect(200);
    expect(await chain.isActive(wallet)).toBe(true);
    // The holder fetches a challenge and proves before the revocation lands (in flight).
    const inFlight = await kit.prove(token, credential);

    const revoked = await kit.cli(`credentials revoke --wallet ${wallet}`);
    expect(revoked).toMatchObject({
      revoked: 1,
      sessionsRevoked: [{ wallet, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) }],
    });
    expect(await chain.isActive(wallet)).toBe(false);
    expect(await sessionOf(wallet)).toMatchObject({ active: false, activeUntil: null });

    // A revocation retires the previous root at once: no grace for the revoked leaf.
    const stale = await postVerify(t, token, inFlight).expect(400);
    expect(stale.body).toMatchObject({ code: 'PROOF_INVALID', phase: 'validation' });
    expect(stale.body.hint).toMatch(/revoked/);
    const fresh = await postVerify(t, token, await kit.prove(token, credential)).expect(400);
    expect(fresh.body.hint).toMatch(/revoked/);
    expect(await chain.isActive(wallet)).toBe(false);
  });

  it('accepts the current and the previous root; an older path is stale until refreshed', async () => {
    const wallet = Wallet.createRandom().address;
    const credential = await kit.issue(wallet);
    await kit.issue(Wallet.createRandom().address); // root rotates: ours is the previous one
    await postVerify(t, token, await kit.prove(token, credential)).expect(200);

    await kit.issue(Wallet.createRandom().address); // two rotations: our root is no longer accepted
    const stale = await postVerify(t, token, await kit.prove(token, credential)).expect(400);
    expect(stale.body.hint).toMatch(/stale/);

    const dir = mkdtempSync(join(tmpdir(), 'cgk-refresh-'));
    const file = join(dir, 'credential.json');
    writeFileSync(file, JSON.stringify(credential));
    const refreshed = await kit.cli(`credentials refresh --credential ${file}`);
    const updated = parseCredentialFile(JSON.parse(readFileSync(file, 'utf8')));
    rmSync(dir, { recursive: true, force: true });
    expect(updated.merkle.root).toBe(refreshed.root);
    await postVerify(t, token, await kit.prove(token, updated)).expect(200);
  });

  it('a credential issued with a 1 s expiry is refused with CREDENTIAL_EXPIRED once it lapses', async () => {
    const wallet = Wallet.createRandom().address;
    const { body: challenge } = await getChallenge(t, token, wallet).expect(200);
    const credential = await kit.issue(wallet, 1);
    // Proved within its one second of life (now = the issuance second < expiresAt).
    const proof = await proveCredential(credential, {
      challenge: challenge.challenge,
      now: credential.expiresAt - 1,
    });
    await pollUntil(
      'the credential to lapse',
      () => Date.now() / 1000,
      (now) => now > credential.expiresAt,
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    const res = await postVerify(t, token, {
      walletAddress: wallet,
      proof: proof.proof,
      publicSignals: proof.publicSignals,
    }).expect(400);
    expect(res.body).toMatchObject({ code: 'CREDENTIAL_EXPIRED', phase: 'preflight' });
    expect(res.body.hint).toMatch(/issuer/);
    expect(await chain.isActive(wallet)).toBe(false);
  });

  it('a session never outlives its credential: activeUntil = min(now + TTL, expiresAt)', async () => {
    const wallet = Wallet.createRandom().address;
    const credential = await kit.issue(wallet, 3_600);
    const res = await postVerify(t, token, await kit.prove(token, credential)).expect(200);
    expect(res.body.activeUntilUnix).toBe(credential.expiresAt);
    expect(res.body.credentialExpiresAt).toBe(credential.expiresAt);
  });

  it('`revoke-session` ends the session on chain and the session endpoint says so', async () => {
    const wallet = chain.wallets[3].address;
    await postVerify(t, token, await kit.prove(token, await kit.issue(wallet))).expect(200);
    expect((await sessionOf(wallet)).active).toBe(true);

    const revoked = await kit.cli(`revoke-session --wallet ${wallet}`);
    expect(revoked).toMatchObject({ wallet, blockNumber: expect.any(Number) });
    expect(await chain.isActive(wallet)).toBe(false);
    expect(await sessionOf(wallet)).toMatchObject({
      address: wallet,
      active: false,
      activeUntil: null,
      source: null,
    });
  });

  it('GET /api/v1/compliance/sessions/:address: on-chain truth for any session, scope defi:preflight', async () => {
    const wallet = chain.wallets[4].address;
    const demo = await postActivateDemo(t, token, wallet).expect(200);
    expect(await sessionOf(wallet.toLowerCase())).toMatchObject({
      address: wallet,
      active: true,
      activeUntil: demo.body.activeUntil,
      source: 'attester',
    });

    const bad = await request(t.server)
      .get('/api/v1/compliance/sessions/0x1234')
      .set('X-API-Key', preflightKey)
      .expect(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_ADDRESS', phase: 'validation' });
    const verifyOnly = await createApiKey(t, token, ['compliance:verify']);
    const scope = await request(t.server)
      .get(`/api/v1/compliance/sessions/${wallet}`)
      .set('X-API-Key', verifyOnly.key)
      .expect(403);
    expect(scope.body.code).toBe('API_KEY_SCOPE_MISSING');
  });

  it('the CLI refuses bad input with usage errors and changes nothing', async () => {
    await expect(kit.cli('credentials issue --wallet 0x12 --out /tmp/x.json')).rejects.toThrow(
      /--wallet must be/,
    );
    await expect(
      kit.cli(`credentials issue --wallet ${Wallet.createRandom().address}`),
    ).rejects.toThrow(/--out is required/);
    await expect(
      kit.cli(
        `credentials issue --wallet ${Wallet.createRandom().address} --expires-in 0 --out /tmp/x`,
      ),
    ).rejects.toThrow(/--expires-in/);
    await expect(kit.cli('credentials push-root --root 0x12')).rejects.toThrow(/--root/);
    await expect(kit.cli('credentials push-root --root 1 --revocation maybe')).rejects.toThrow(
      /--revocation/,
    );
    await expect(kit.cli('credentials frobnicate --x y')).rejects.toThrow(/Unknown command/);
    const pushed = await kit.cli('credentials push-root --root 12345');
    expect((pushed.accepted as string[])[0]).toBe('12345');
  });
});
