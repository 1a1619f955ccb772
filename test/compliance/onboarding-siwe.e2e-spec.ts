import { Wallet } from 'ethers';
import { DEVNET_ISSUER_PUBLIC_KEY, formatIssuerPublicKey } from '../../src/compliance/zk';
import { DEVNET_ISSUER_PRIVATE_KEY } from '../../src/compliance/zk/devnet-issuer';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import {
  ComplianceDevnet,
  CredentialKit,
  getNonce,
  openCredentialKit,
  postActivateDemo,
  postRegister,
  postVerify,
  signSiwe,
  startComplianceDevnet,
} from '../helpers/compliance';
import { TEST_RECEIPT_SIGNING_KEY } from '../helpers/receipts';

describe('Onboarding (production mode): Sign-In-with-Ethereum binding', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let alice: TestAccount;
  let aliceToken: string;
  let bobToken: string;
  let kit: CredentialKit;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({
      env: {
        APP_MODE: 'production',
        ...chain.env,
        JWT_SECRET: 'a-production-like-secret-of-at-least-32-characters',
        MFA_ENCRYPTION_KEY: 'a-production-mfa-key-of-at-least-32-characters',
        WEBHOOK_SECRETS_KEY: 'a-production-webhook-key-of-at-least-32-characters',
        RECEIPT_SIGNING_KEY: TEST_RECEIPT_SIGNING_KEY,
        // Required in production; the wallets below sign for localhost (signSiwe's default).
        SIWE_DOMAIN: 'localhost',
        ATTESTER_PRIVATE_KEY: chain.attesterKey,
        // The devnet's hook is v3: production names the key its authorizations are signed with.
        AUTHORIZER_PRIVATE_KEY: chain.attesterKey,
        ZK_ISSUER_PUBLIC_KEY: formatIssuerPublicKey(DEVNET_ISSUER_PUBLIC_KEY),
      },
    });
    alice = await t.createAccount();
    [aliceToken, bobToken] = [await login(t, alice), await login(t, await t.createAccount())];
    // The issuer's side, with the (public) devnet issuer key: production has no default one.
    kit = await openCredentialKit(t, chain, {
      APP_MODE: 'production',
      JWT_SECRET: 'a-production-like-secret-of-at-least-32-characters',
      MFA_ENCRYPTION_KEY: 'a-production-mfa-key-of-at-least-32-characters',
      WEBHOOK_SECRETS_KEY: 'a-production-webhook-key-of-at-least-32-characters',
      RECEIPT_SIGNING_KEY: TEST_RECEIPT_SIGNING_KEY,
      SIWE_DOMAIN: 'localhost',
      ATTESTER_PRIVATE_KEY: chain.attesterKey,
      // The devnet's hook is v3: production names the key its authorizations are signed with.
      AUTHORIZER_PRIVATE_KEY: chain.attesterKey,
      ZK_ISSUER_PUBLIC_KEY: formatIssuerPublicKey(DEVNET_ISSUER_PUBLIC_KEY),
      ZK_ISSUER_PRIVATE_KEY: DEVNET_ISSUER_PRIVATE_KEY,
    });
  }, 120_000);
  afterAll(async () => {
    await kit?.close();
    await t?.close();
    await chain?.close();
  });

  const nonceFor = async (token: string, wallet?: string) =>
    (await getNonce(t, token, wallet).expect(200)).body;

  it('binds with a valid SIWE message and refuses the replayed nonce', async () => {
    const wallet = chain.wallets[1];
    const issued = await nonceFor(aliceToken, wallet.address);
    expect(issued).toMatchObject({ authMethod: 'jwt', domain: 'localhost', chainId: 84532 });
    expect(issued.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(new Date(issued.expiresAt).getTime() - Date.now()).toBeGreaterThan(590_000);
    // The server-prepared message is signable as is.
    const signature = await wallet.signMessage(issued.message);
    const res = await postRegister(t, aliceToken, {
      walletAddress: wallet.address,
      message: issued.message,
      signature,
    }).expect(200);
    expect(res.body).toEqual({
      authMethod: 'jwt',
      walletAddress: wallet.address,
      accountId: alice.accountId,
      bound: true,
      rebound: false,
    });

    const replay = await postRegister(t, aliceToken, {
      walletAddress: wallet.address,
      message: issued.message,
      signature,
    }).expect(400);
    expect(replay.body).toMatchObject({
      code: 'SIWE_INVALID',
      phase: 'validation',
      details: [{ reason: 'SIWE_NONCE' }],
    });
    expect(replay.body.hint).toContain('GET /onboarding/nonce');
  });

  it('refuses a missing signature, a wrong chainId, a wrong domain, a wrong signer and another account’s nonce', async () => {
    const wallet = chain.wallets[2];
    const missing = await postRegister(t, aliceToken, { walletAddress: wallet.address }).expect(
      400,
    );
    expect(missing.body.code).toBe('SIWE_INVALID');

    const reasonOf = async (body: object) => {
      const res = await postRegister(t, aliceToken, {
        walletAddress: wallet.address,
        ...body,
      }).expect(400);
      expect(res.body.code).toBe('SIWE_INVALID');
      return res.body.details[0].reason as string;
    };
    expect(
      await reasonOf(await signSiwe(wallet, (await nonceFor(aliceToken)).nonce, { chainId: 8453 })),
    ).toBe('SIWE_CHAIN');
    expect(
      await reasonOf(
        await signSiwe(wallet, (await nonceFor(aliceToken)).nonce, { domain: 'evil.example' }),
      ),
    ).toBe('SIWE_DOMAIN');
    // Signed by another key for this wallet's address ...
    const forged = await signSiwe(chain.wallets[3], (await nonceFor(aliceToken)).nonce, {
      address: wallet.address,
    });
    expect(await reasonOf(forged)).toBe('SIWE_SIGNER');
    // ... or a genuine message of another wallet presented for this one.
    expect(
      await reasonOf(await signSiwe(chain.wallets[3], (await nonceFor(aliceToken)).nonce)),
    ).toBe('SIWE_SIGNER');
    expect(await reasonOf(await signSiwe(wallet, (await nonceFor(bobToken)).nonce))).toBe(
      'SIWE_NONCE',
    );
    expect(await reasonOf(await signSiwe(wallet, 'abcdef0123456789abcdef0123456789'))).toBe(
      'SIWE_NONCE',
    );
    const old = new Date(Date.now() - 11 * 60_000);
    expect(
      await reasonOf(await signSiwe(wallet, (await nonceFor(aliceToken)).nonce, { issuedAt: old })),
    ).toBe('SIWE_EXPIRED');

    // None of that bound the wallet: a correct message still works.
    await postRegister(t, aliceToken, {
      walletAddress: wallet.address,
      ...(await signSiwe(wallet, (await nonceFor(aliceToken)).nonce)),
    }).expect(200);
  });

  it('never rebinds a wallet bound to another account (403), even with a valid signature', async () => {
    const wallet = chain.wallets[1]; // alice's, from the first test
    const res = await postRegister(t, bobToken, {
      walletAddress: wallet.address,
      ...(await signSiwe(wallet, (await nonceFor(bobToken)).nonce)),
    }).expect(403);
    expect(res.body).toMatchObject({ code: 'INSTITUTION_OWNERSHIP_MISMATCH', phase: 'preflight' });
  });

  it('refuses the demo activation with 403 DEMO_DISABLED', async () => {
    const res = await postActivateDemo(t, aliceToken, chain.wallets[1].address).expect(403);
    expect(res.body.code).toBe('DEMO_DISABLED');
    expect(res.body.hint).toContain('POST /verify');
    expect(await chain.isActive(chain.wallets[1].address)).toBe(false);
  });

  it('verifies a proof only for a wallet bound to the caller', async () => {
    const unbound = Wallet.createRandom().address;
    const proofUnbound = await kit.prove(aliceToken, await kit.issue(unbound));
    const refused = await postVerify(t, aliceToken, proofUnbound).expect(403);
    expect(refused.body.code).toBe('INSTITUTION_OWNERSHIP_MISMATCH');
    expect(refused.body.hint).toContain('POST /onboarding/register');

    const mine = chain.wallets[1].address;
    const proof = await kit.prove(aliceToken, await kit.issue(mine));
    const res = await postVerify(t, aliceToken, proof).expect(200);
    expect(res.body).toMatchObject({
      verified: true,
      walletAddress: mine,
      nullifier: proof.publicSignals[0],
    });
    expect(await chain.activeUntil(mine)).toBe(res.body.activeUntilUnix);
  });
});
