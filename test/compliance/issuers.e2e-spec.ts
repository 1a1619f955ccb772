import { Wallet } from 'ethers';
import request from 'supertest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCredentialFile, type CredentialFile } from '../../src/compliance/zk/credential-file';
import { mintStandaloneCredential } from '../../src/compliance/zk/proof-generator';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import {
  ComplianceDevnet,
  CredentialKit,
  IssuerKey,
  openCredentialKit,
  postVerify,
  startComplianceDevnet,
} from '../helpers/compliance';

/** Issue 40 item 2: several credential issuers, registered, rotated and revoked by the operator. */
// Real Groth16 proofs: seconds each on the 2 shared cores.
jest.setTimeout(300_000);

describe('Credential issuers: two issuers, a rotation, a revocation (`cli issuers`)', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let kit: CredentialKit;
  let token: string;
  let dir: string;
  let files = 0;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env });
    kit = await openCredentialKit(t, chain);
    token = await login(t, await t.createAccount());
    dir = mkdtempSync(join(tmpdir(), 'cgk-issuers-'));
  }, 120_000);
  afterAll(async () => {
    await kit?.close();
    await t?.close();
    await chain?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const newIssuerKey = () => kit.newIssuerKey();
  const issue = (wallet: string, key: IssuerKey) => kit.issue(wallet, undefined, key);

  async function refresh(credential: CredentialFile): Promise<CredentialFile> {
    const file = join(dir, `credential-${++files}.json`);
    writeFileSync(file, JSON.stringify(credential), { mode: 0o600 });
    await kit.cli(`credentials refresh --credential ${file}`);
    return parseCredentialFile(JSON.parse(readFileSync(file, 'utf8')));
  }

  it('a credential of each issuer opens a session and /verify names the issuer; a rotation keeps old credentials; a revocation refuses them at once', async () => {
    const alpha = await newIssuerKey();
    const beta = await newIssuerKey();
    await kit.cli(`issuers add --name alpha --public-key ${alpha.publicKey}`);
    await kit.cli(`issuers add --name beta --public-key ${beta.publicKey}`);

    const walletA = Wallet.createRandom().address;
    const walletB = Wallet.createRandom().address;
    const fromAlpha = await issue(walletA, alpha);
    const fromBeta = await issue(walletB, beta);

    const a = await postVerify(t, token, await kit.prove(token, fromAlpha)).expect(200);
    expect(a.body).toMatchObject({ verified: true, issuer: { name: 'alpha' } });
    const b = await postVerify(t, token, await kit.prove(token, fromBeta)).expect(200);
    expect(b.body).toMatchObject({ verified: true, issuer: { name: 'beta' } });
    expect(await chain.isActive(walletB)).toBe(true);

    // Rotation: alpha's first key is retired; its credential still verifies; it signs nothing new.
    const alpha2 = await newIssuerKey();
    const rotated = await kit.cli(`issuers rotate --name alpha --public-key ${alpha2.publicKey}`);
    expect(rotated).toMatchObject({
      issuer: {
        name: 'alpha',
        revokedAt: null,
        keys: [{ retiredAt: expect.any(Number) }, { retiredAt: null }],
      },
    });
    const old = await postVerify(t, token, await kit.prove(token, fromAlpha)).expect(200);
    expect(old.body.issuer).toEqual({ name: 'alpha' });
    await expect(issue(Wallet.createRandom().address, alpha)).rejects.toThrow(/retired/);
    const fromAlpha2 = await issue(Wallet.createRandom().address, alpha2);
    const fresh = await postVerify(t, token, await kit.prove(token, fromAlpha2)).expect(200);
    expect(fresh.body.issuer).toEqual({ name: 'alpha' });

    // Revocation: beta's credentials open no new session, and the session beta opened ends.
    const inFlight = await kit.prove(token, fromBeta);
    const revoked = await kit.cli('issuers revoke --name beta');
    expect(revoked).toMatchObject({
      issuer: { name: 'beta', revokedAt: expect.any(Number) },
      sessionsRevoked: [{ wallet: walletB }],
    });
    expect(await chain.isActive(walletB)).toBe(false);
    // The session it ended is audited (and sent to webhooks) with the reason issuer_revoked.
    const audit = await request(t.server)
      .get('/api/v1/audit-events')
      .query({ type: 'session.revoked' })
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(audit.body.items).toContainEqual(
      expect.objectContaining({
        data: expect.objectContaining({ walletAddress: walletB, reason: 'issuer_revoked' }),
      }),
    );
    const refused = await postVerify(t, token, inFlight).expect(403);
    expect(refused.body).toMatchObject({
      code: 'CREDENTIAL_ISSUER_REVOKED',
      phase: 'preflight',
      message: expect.stringContaining('"beta"'),
    });
    expect(await chain.isActive(walletB)).toBe(false);
    // ...and beta cannot sign a new one either; alpha is untouched.
    await expect(issue(Wallet.createRandom().address, beta)).rejects.toThrow(/revoked/);
    // (after the issuances since, the old credential's Merkle path needs the current root)
    const refreshedAlpha = await refresh(fromAlpha);
    const still = await postVerify(t, token, await kit.prove(token, refreshedAlpha)).expect(200);
    expect(still.body.issuer).toEqual({ name: 'alpha' });

    const listed = (await kit.cli('issuers list')) as { issuers: { name: string }[] };
    expect(listed.issuers.map((i) => i.name)).toEqual(['default', 'alpha', 'beta']);
  });

  it('refuses a key no issuer registered (400), a key outside its validity dates, and bad commands', async () => {
    const stranger = await newIssuerKey();
    // Not registered: the CLI will not sign with it, and a proof of it is not accepted.
    await expect(issue(Wallet.createRandom().address, stranger)).rejects.toThrow(
      /no registered issuer/,
    );
    const foreign = await mintStandaloneCredential({
      wallet: Wallet.createRandom().address,
      issuerPrivateKey: stranger.privateKey,
    });
    const unknown = await postVerify(t, token, await kit.prove(token, foreign)).expect(400);
    expect(unknown.body).toMatchObject({
      code: 'PROOF_INVALID',
      message: expect.stringMatching(/not issued by an issuer this service accepts/),
    });

    const later = await newIssuerKey();
    const from = Math.floor(Date.now() / 1000) + 3600;
    await kit.cli(`issuers add --name later --public-key ${later.publicKey} --valid-from ${from}`);
    await expect(issue(Wallet.createRandom().address, later)).rejects.toThrow(/not_yet_valid/);

    await expect(
      kit.cli(`issuers add --name alpha --public-key ${stranger.publicKey}`),
    ).rejects.toThrow(/already exists/);
    await expect(
      kit.cli(`issuers add --name Bad! --public-key ${stranger.publicKey}`),
    ).rejects.toThrow(/--name/);
    await expect(kit.cli('issuers add --name gamma --public-key 1,2')).rejects.toThrow(
      /Baby Jubjub/,
    );
    await expect(
      kit.cli(`issuers add --name gamma --public-key ${later.publicKey}`),
    ).rejects.toThrow(/already registered \(issuer "later"\)/);
    await expect(kit.cli('issuers revoke --name nobody')).rejects.toThrow(/no issuer "nobody"/);
  });
});
