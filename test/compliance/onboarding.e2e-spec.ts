import { Wallet } from 'ethers';
import request from 'supertest';
import { ERROR_CATALOGUE } from '../../src/common/errors/error-catalogue';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import {
  ComplianceDevnet,
  postActivateDemo,
  postRegister,
  startComplianceDevnet,
} from '../helpers/compliance';
import { closedPortUrl } from '../helpers/ports';

describe('Onboarding (demo mode): wallet binding and demo session activation', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let alice: TestAccount;
  let bob: TestAccount;
  let aliceToken: string;
  let bobToken: string;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env });
    [alice, bob] = [await t.createAccount(), await t.createAccount()];
    [aliceToken, bobToken] = [await login(t, alice), await login(t, bob)];
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it('register -> activate-session-demo: the session is on chain and the swap builder goes from 412 to 200', async () => {
    const user = chain.wallets[1].address;
    const { WETH, tUSDC } = chain.deployment.tokens;
    const swap = {
      tokenIn: WETH,
      tokenOut: tUSDC,
      amount: '100000000000000000',
      userAddress: user,
    };
    const postSwap = () =>
      request(t.server)
        .post('/api/v1/defi/swap')
        .set('Authorization', `Bearer ${aliceToken}`)
        .send(swap);

    const registered = await postRegister(t, aliceToken, {
      walletAddress: user.toLowerCase(),
    }).expect(200);
    expect(registered.body).toEqual({
      authMethod: 'jwt',
      walletAddress: user,
      accountId: alice.accountId,
      bound: true,
      rebound: false,
    });

    const before = await postSwap().expect(412);
    expect(before.body.code).toBe('SESSION_NOT_ACTIVE');
    expect(await chain.isActive(user)).toBe(false);

    const started = Date.now();
    const res = await postActivateDemo(t, aliceToken, user).expect(200);
    console.info(`activate-session-demo answered in ${Date.now() - started} ms (mined)`);
    expect(res.body).toMatchObject({ authMethod: 'jwt', walletAddress: user, walletBound: true });
    expect(res.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(new Date(res.body.activeUntil).getTime()).toBe(res.body.activeUntilUnix * 1000);
    const receipt = await chain.provider.getTransactionReceipt(res.body.txHash);
    expect(receipt?.status).toBe(1);
    expect(await chain.activeUntil(user)).toBe(res.body.activeUntilUnix);
    expect(await chain.isActive(user)).toBe(true);
    const chainNow = (await chain.provider.getBlock('latest'))!.timestamp;
    expect(res.body.activeUntilUnix - chainNow).toBeGreaterThan(24 * 3600 - 60);

    const after = await postSwap().expect(200);
    expect(after.body.session.active).toBe(true);
  });

  it('is idempotent for a wallet already bound to the caller, and answers at /api/v1 too', async () => {
    const wallet = chain.wallets[2].address;
    await postRegister(t, aliceToken, { walletAddress: wallet }).expect(200);
    const again = await postRegister(t, aliceToken, { walletAddress: wallet }, '/api/v1').expect(
      200,
    );
    expect(again.body).toEqual({
      authMethod: 'jwt',
      walletAddress: wallet,
      accountId: alice.accountId,
      bound: true,
      rebound: false,
    });
  });

  it('rebinds a wallet from another account in demo mode and says only that it was rebound', async () => {
    const wallet = chain.wallets[3].address;
    await postRegister(t, aliceToken, { walletAddress: wallet }).expect(200);
    const moved = await postRegister(t, bobToken, { walletAddress: wallet }).expect(200);
    expect(moved.body).toEqual({
      authMethod: 'jwt',
      walletAddress: wallet,
      accountId: bob.accountId,
      bound: true,
      rebound: true,
    });
    expect(JSON.stringify(moved.body)).not.toContain(alice.accountId);

    // Alice no longer owns it: the swap builder and the demo activation refuse her, with the hint of spec §7 rule 1.
    const refused = await postActivateDemo(t, aliceToken, wallet).expect(403);
    expect(refused.body).toMatchObject({
      code: 'INSTITUTION_OWNERSHIP_MISMATCH',
      phase: 'preflight',
    });
    expect(refused.body.hint).toBe(ERROR_CATALOGUE.INSTITUTION_OWNERSHIP_MISMATCH.hint);
    expect(refused.body.hint).toContain('POST /onboarding/register');
    expect(await chain.isActive(wallet)).toBe(false);
  });

  it('binds an unbound wallet on demo activation, and activates 10 wallets concurrently without nonce clashes', async () => {
    const wallets = Array.from({ length: 10 }, () => Wallet.createRandom().address);
    const started = Date.now();
    const results = await Promise.all(wallets.map((w) => postActivateDemo(t, bobToken, w)));
    const elapsed = Date.now() - started;
    console.info(`10 concurrent activations: ${elapsed} ms`);
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.txHash)).size).toBe(10);
    const nonces = await Promise.all(
      results.map(async (r) => (await chain.provider.getTransaction(r.body.txHash))!.nonce),
    );
    expect(new Set(nonces).size).toBe(10);
    for (const w of wallets) expect(await chain.isActive(w)).toBe(true);
    // Now bound to bob: alice may neither activate nor take them over... except by demo rebinding.
    await postActivateDemo(t, aliceToken, wallets[0]).expect(403);
  });

  it('heals a nonce clash when two instances share one attester key', async () => {
    const second = await createTestApp({ db: t.db, env: chain.env });
    try {
      // Warm both instances' nonce counters, then interleave: each one's cached nonce goes stale.
      await postActivateDemo(t, bobToken, Wallet.createRandom().address).expect(200);
      await postActivateDemo(second, bobToken, Wallet.createRandom().address).expect(200);
      const wallets = Array.from({ length: 8 }, () => Wallet.createRandom().address);
      const results = await Promise.all(
        wallets.map((w, i) => postActivateDemo(i % 2 ? second : t, bobToken, w)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
      for (const w of wallets) expect(await chain.isActive(w)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('validates before authenticating, and checks the onboarding:write scope of API keys', async () => {
    const bad = await request(t.server)
      .post('/onboarding/register')
      .send({ walletAddress: '0x123' })
      .expect(400);
    expect(bad.body.code).toBe('INVALID_ADDRESS');
    await request(t.server)
      .post('/onboarding/register')
      .send({ walletAddress: chain.wallets[4].address })
      .expect(401);
    const unknownField = await postRegister(t, aliceToken, {
      walletAddress: chain.wallets[4].address,
      extra: 1,
    }).expect(400);
    expect(unknownField.body.code).toBe('INVALID_PARAMS');

    const wrongScope = await createApiKey(t, aliceToken, ['defi:swap']);
    const denied = await postRegister(
      t,
      { apiKey: wrongScope.key },
      { walletAddress: chain.wallets[4].address },
    ).expect(403);
    expect(denied.body.code).toBe('API_KEY_SCOPE_MISSING');
    const key = await createApiKey(t, aliceToken, ['onboarding:write']);
    const ok = await postRegister(
      t,
      { apiKey: key.key },
      { walletAddress: chain.wallets[4].address },
    ).expect(200);
    expect(ok.body.authMethod).toBe('api_key');
    const activated = await postActivateDemo(
      t,
      { apiKey: key.key },
      chain.wallets[4].address,
      '/api/v1',
    ).expect(200);
    expect(activated.body.authMethod).toBe('api_key');
  });

  it('answers 502 BROADCAST_FAILED (phase broadcast) when the activation reverts: the key is not an attester', async () => {
    const other = await createTestApp({
      db: t.db,
      env: { ...chain.env, ATTESTER_PRIVATE_KEY: chain.wallets[7].privateKey },
    });
    try {
      const res = await postActivateDemo(other, aliceToken, Wallet.createRandom().address).expect(
        502,
      );
      expect(res.body).toMatchObject({
        code: 'BROADCAST_FAILED',
        phase: 'broadcast',
        error: 'Bad Gateway',
      });
      expect(JSON.stringify(res.body)).not.toMatch(/NotAttester|execution reverted|0x[0-9a-f]{8}/i);
    } finally {
      await other.close();
    }
  });

  it('answers 503 CHAIN_UNAVAILABLE quickly when the RPC is down', async () => {
    const down = await createTestApp({
      db: t.db,
      env: { ...chain.env, CHAIN_RPC_URL: await closedPortUrl() },
    });
    try {
      const started = Date.now();
      const res = await postActivateDemo(down, aliceToken, Wallet.createRandom().address).expect(
        503,
      );
      expect(res.body).toMatchObject({ code: 'CHAIN_UNAVAILABLE', phase: 'preflight' });
      expect(Date.now() - started).toBeLessThan(6_000);
    } finally {
      await down.close();
    }
  });
});
