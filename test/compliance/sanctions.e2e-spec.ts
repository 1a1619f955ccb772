/**
 * Issue 41: sanctions act at the next trade. A wallet with a session swaps; the devnet's oracle
 * flags it (`npm run cli -- sanctions add`); its next swap, signed and sent straight to the chain,
 * reverts with the hook's WalletSanctioned; within one screening interval (1 s here) the watcher
 * revokes its session on chain, the session.revoked webhook says why and the audit trail has it;
 * preflight, build, relay and activation all say WALLET_SANCTIONED; unflagged, it is activated
 * again. On PostgreSQL, two replicas revoke a flagged wallet once.
 * The watcher also ends a session whose source was revoked since it opened it: a credential
 * (credential_revoked), an EAS attestation revoked upstream (`attest revoke`: attestation_revoked),
 * a ZK issuer revoked by the operator (issuer_revoked), even when nothing ended the session at the
 * time. Issue 40 item 5: a policy names registered issuers as sources.
 */
import { Contract, Transaction, Wallet, id as topicOf } from 'ethers';
import { DataSource, In } from 'typeorm';
import request from 'supertest';
import { COMPLIANCE_REGISTRY } from '../../src/chain/abi/compliance-registry';
import { decodeRevert } from '../../src/chain/encoding/revert-decoder';
import type { UnsignedTx } from '../../src/defi-builder/encoding/approvals';
import { sanctionsCommand } from '../../src/cli/sanctions-command';
import { ChainReaderService } from '../../src/chain/chain-reader.service';
import { AttestationReaderService } from '../../src/compliance/attestations/attestation-reader.service';
import { AttestationSession } from '../../src/compliance/attestations/attestation-session.entity';
import { DemoIssuerService } from '../../src/compliance/credentials/demo-issuer.service';
import { IssuersService } from '../../src/compliance/credentials/issuers.service';
import { ScreeningWatcher } from '../../src/compliance/screening/screening.watcher';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import {
  ComplianceDevnet,
  CredentialKit,
  openCredentialKit,
  postActivateDemo,
  postVerify,
  startComplianceDevnet,
} from '../helpers/compliance';
import { DefiDevnet, postSwap, startDefiDevnet } from '../helpers/defi';
import { testEngine } from '../helpers/test-env';
import { typeOf, verified, WebhookReceiver } from '../webhooks/receiver';

// The credential case proves with real Groth16 (seconds each on the shared cores).
jest.setTimeout(180_000);

const SCREENING_ENV = {
  SCREENING_INTERVAL_MS: '1000',
  WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms',
  WEBHOOK_POLL_INTERVAL_MS: '100',
};

describe('Sanctions: the hook refuses at once, the watcher revokes within one interval', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let receiver: WebhookReceiver;
  let token: string;
  let secret: string;
  let auditKey: string;

  beforeAll(async () => {
    chain = await startDefiDevnet();
    t = await createTestApp({ env: { CHAIN_RPC_URL: chain.rpcUrl, ...SCREENING_ENV } });
    receiver = await WebhookReceiver.start();
    token = await login(t, await t.createAccount());
    const hook = await request(t.server)
      .post('/api/v1/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .send({ url: receiver.url, events: ['session.revoked'], description: 'sanctions e2e' })
      .expect(201);
    secret = hook.body.secret;
    auditKey = (await createApiKey(t, token, ['audit:read'])).key;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await chain?.close();
  });

  /** The devnet oracle through the CLI command (owner: devnet account 0). */
  const sanctions = async (verb: 'add' | 'remove' | 'list', address?: string) => {
    const args = [...(address ? [address] : []), '--rpc', chain.rpcUrl];
    const { output } = await sanctionsCommand(verb, args, {});
    return JSON.parse(output) as { sanctioned: boolean | string[]; txHash?: string };
  };

  const swapBody = (user: string) => ({
    tokenIn: chain.deployment.tokens.WETH,
    tokenOut: chain.deployment.tokens.tUSDC,
    amount: (10n ** 16n).toString(),
    userAddress: user,
  });

  async function sign(wallet: Wallet, tx: UnsignedTx, nonce?: number): Promise<string> {
    const populated = await wallet.populateTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
      gasLimit: BigInt(tx.gas),
      ...(nonce !== undefined && { nonce }),
    });
    return wallet.signTransaction(populated);
  }

  const registry = () =>
    new Contract(
      chain.deployment.contracts.complianceRegistry,
      COMPLIANCE_REGISTRY,
      chain.provider,
    );

  it('a flagged wallet: its swap reverts on chain, its session is revoked within one interval, every door says WALLET_SANCTIONED; unflagged, it is activated again', async () => {
    const user = chain.wallets[7];
    await postActivateDemo(t, token, user.address).expect(200);
    const first = await postSwap(t, token, swapBody(user.address)).expect(200);
    for (const approval of first.body.approvals)
      expect((await chain.send(user, approval.transaction)).status).toBe(1);
    const built = await postSwap(t, token, swapBody(user.address)).expect(200);
    expect((await chain.send(user, built.body.transaction)).status).toBe(1);

    // Built while the wallet was clean: the next swap, signed by the wallet for later.
    const next = await postSwap(t, token, swapBody(user.address)).expect(200);
    expect(await sanctions('add', user.address)).toMatchObject({ sanctioned: true });
    expect((await sanctions('list')).sanctioned).toEqual([user.address]);

    // Straight to the chain (not through the service): the hook refuses, naming the wallet.
    const nonce = await user.getNonce();
    const { revertData, mined } = await chain.sendExpectingRevert(user, next.body.transaction);
    expect(mined).toBe(true);
    // Automine: it is in one of the last blocks (the watcher may already have mined its own).
    let reverted: string | undefined;
    for (let n = await chain.provider.getBlockNumber(); !reverted; n -= 1) {
      const block = await chain.provider.getBlock(n, true);
      reverted = block!.prefetchedTransactions.find(
        (tx) => tx.from === user.address && tx.nonce === nonce,
      )?.hash;
    }
    const decoded = decodeRevert(revertData);
    expect(decoded).toMatchObject({ name: 'WalletSanctioned', code: 'WALLET_SANCTIONED' });
    expect(decoded.args.wallet).toBe(user.address);

    // Within one screening interval: revoked on chain, webhook with the reason, audit trail.
    const [delivered] = await receiver.waitFor(
      (h) => typeOf(h) === 'session.revoked' && h.body.includes(user.address),
    );
    expect(verified(secret, delivered).data).toMatchObject({
      walletAddress: user.address,
      reason: 'sanctioned',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(await registry().isActive(user.address)).toBe(false);
    const audit = await request(t.server)
      .get('/api/v1/audit-events?type=session.revoked')
      .set('X-API-Key', auditKey)
      .expect(200);
    expect(audit.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'session.revoked',
          actor: expect.objectContaining({ type: 'system' }),
          data: expect.objectContaining({ walletAddress: user.address, reason: 'sanctioned' }),
        }),
      ]),
    );

    // Preflight reports the wallet sanctioned (issue 53); build, activation: 403 WALLET_SANCTIONED
    // naming the wallet.
    const preflight = await request(t.server)
      .get(`/api/v1/defi/preflight/${user.address}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(preflight.body.session).toMatchObject({ active: false, sanctioned: true });
    expect(preflight.body.nextActions).toEqual([]);
    const build = await postSwap(t, token, swapBody(user.address), '?buildOnly=true').expect(403);
    expect(build.body.code).toBe('WALLET_SANCTIONED');
    const activation = await postActivateDemo(t, token, user.address).expect(403);
    expect(activation.body).toMatchObject({ code: 'WALLET_SANCTIONED', phase: 'preflight' });
    expect(await registry().isActive(user.address)).toBe(false);

    // The status of the transaction that reverted decodes the sanctions error.
    const status = await request(t.server)
      .get(`/api/v1/defi/transactions/${reverted}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(status.body).toMatchObject({
      status: 'REVERTED',
      revert: { code: 'WALLET_SANCTIONED' },
    });
    expect(status.body.revert.message).toContain(user.address);

    // Unflagged: a session can be opened again and the wallet trades.
    expect(await sanctions('remove', user.address)).toMatchObject({ sanctioned: false });
    await postActivateDemo(t, token, user.address).expect(200);
    const again = await postSwap(t, token, swapBody(user.address)).expect(200);
    expect((await chain.send(user, again.body.transaction)).status).toBe(1);
  });

  it('the relay refuses a signed swap of a flagged wallet: 403 WALLET_SANCTIONED (broadcast) naming it', async () => {
    const user = chain.wallets[8];
    await chain.activate(user.address);
    const first = await postSwap(t, token, swapBody(user.address)).expect(200);
    for (const approval of first.body.approvals)
      expect((await chain.send(user, approval.transaction)).status).toBe(1);
    const built = await postSwap(t, token, swapBody(user.address)).expect(200);
    const signed = await sign(user, built.body.transaction);
    await sanctions('add', user.address);
    try {
      const refused = await request(t.server)
        .post('/api/v1/defi/transactions')
        .set('Authorization', `Bearer ${token}`)
        .send({ signedTransaction: signed })
        .expect(403);
      expect(refused.body).toMatchObject({ code: 'WALLET_SANCTIONED', phase: 'broadcast' });
      expect(refused.body.message).toContain(user.address);
      expect(refused.body.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ walletAddress: user.address })]),
      );
      // Nothing was sent: the wallet's nonce is unchanged.
      expect(await chain.provider.getTransactionCount(user.address)).toBe(
        Transaction.from(signed).nonce,
      );
    } finally {
      await sanctions('remove', user.address);
    }
  });

  it('the relay refuses every transaction of a flagged wallet, its approvals included (403 WALLET_SANCTIONED, broadcast); an exit follows the exit policy (freeze here) (issue 52 item 6)', async () => {
    const user = chain.wallets[5];
    const { WETH, tUSDC } = chain.deployment.tokens;
    const mint = {
      token0: WETH,
      token1: tUSDC,
      amount0: (10n ** 17n).toString(),
      amount1: (300n * 10n ** 6n).toString(),
      tickLower: -887220,
      tickUpper: 887220,
      userAddress: user.address,
    };
    const post = (path: string, body: object, query = '') =>
      request(t.server)
        .post(`/api/v1/defi/${path}${query}`)
        .set('Authorization', `Bearer ${token}`)
        .send(body);
    // A position of the wallet, minted while it was clean (set up straight on the chain).
    await chain.activate(user.address);
    const first = await post('liquidity', mint).expect(200);
    for (const approval of first.body.approvals)
      expect((await chain.send(user, approval.transaction)).status).toBe(1);
    const minted = await post('liquidity', mint).expect(200);
    const tokenId = (await chain.positionManager.nextTokenId()) as bigint;
    expect((await chain.send(user, minted.body.transaction)).status).toBe(1);
    const collect = await post('liquidity/collect', {
      tokenId: tokenId.toString(),
      userAddress: user.address,
    }).expect(200);

    // The approvals a swap of tWBTC needs: tWBTC -> Permit2, then Permit2 -> UniversalRouter.
    const swap = await postSwap(
      t,
      token,
      { ...swapBody(user.address), tokenIn: chain.deployment.tokens.tWBTC, amount: '100000' },
      '?buildOnly=true',
    ).expect(200);
    const approvals = swap.body.approvals as Array<{ transaction: UnsignedTx }>;
    expect(approvals.map((a) => a.transaction.to)).toEqual([
      chain.deployment.tokens.tWBTC,
      chain.deployment.contracts.permit2,
    ]);
    const nonce = await user.getNonce();
    const signed = [
      ...(await Promise.all(approvals.map((a, i) => sign(user, a.transaction, nonce + i)))),
      await sign(user, collect.body.transaction, nonce),
    ];

    await sanctions('add', user.address);
    try {
      for (const raw of signed) {
        const refused = await request(t.server)
          .post('/api/v1/defi/transactions')
          .set('Authorization', `Bearer ${token}`)
          .send({ signedTransaction: raw })
          .expect(403);
        expect(refused.body).toMatchObject({ code: 'WALLET_SANCTIONED', phase: 'broadcast' });
        expect(refused.body.details).toEqual(
          expect.arrayContaining([expect.objectContaining({ walletAddress: user.address })]),
        );
      }
      // Nothing was sent.
      expect(await chain.provider.getTransactionCount(user.address)).toBe(nonce);
    } finally {
      await sanctions('remove', user.address);
    }
    // Unflagged, the same signed approval is relayed.
    await request(t.server)
      .post('/api/v1/defi/transactions')
      .set('Authorization', `Bearer ${token}`)
      .send({ signedTransaction: signed[0] })
      .expect(202);
  });

  // SQLite is one process by construction: there the "replica" is the same app, whose
  // overlapping passes share one run.
  it('two replicas on PostgreSQL revoke a flagged wallet once (one transaction)', async () => {
    const second =
      testEngine() === 'postgres'
        ? await createTestApp({ db: t.db, env: { CHAIN_RPC_URL: chain.rpcUrl, ...SCREENING_ENV } })
        : t;
    try {
      const user = chain.wallets[9];
      const from = await chain.provider.getBlockNumber();
      await postActivateDemo(t, token, user.address).expect(200);
      await sanctions('add', user.address);
      // Both replicas' watchers pass at once (besides their timers): one holds the lock.
      await Promise.all([
        t.app.get(ScreeningWatcher).runOnce(),
        second.app.get(ScreeningWatcher).runOnce(),
      ]);
      await receiver.waitFor(
        (h) => typeOf(h) === 'session.revoked' && h.body.includes(user.address),
      );
      // Both replicas screen again, at the same moment: still one revocation.
      await Promise.all([
        t.app.get(ScreeningWatcher).runOnce(),
        second.app.get(ScreeningWatcher).runOnce(),
      ]);
      await Promise.all([
        t.app.get(ScreeningWatcher).runOnce(),
        second.app.get(ScreeningWatcher).runOnce(),
      ]);
      const head = await chain.provider.getBlockNumber();
      const logs = await chain.provider.getLogs({
        address: chain.deployment.contracts.complianceRegistry,
        topics: [
          topicOf('SessionRevoked(address,address)'),
          `0x${user.address.slice(2).toLowerCase().padStart(64, '0')}`,
        ],
        fromBlock: from,
      });
      expect(logs).toHaveLength(1);
      expect(head).toBeGreaterThanOrEqual(logs[0].blockNumber);
      expect(
        receiver.received.filter(
          (h) => typeOf(h) === 'session.revoked' && h.body.includes(user.address),
        ),
      ).toHaveLength(1);
      await sanctions('remove', user.address);
    } finally {
      if (second !== t) await second.close();
    }
  });
});

describe('Screening: a revoked credential, issuer or attestation ends the session it opened', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let kit: CredentialKit;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: { ...chain.env, ...SCREENING_ENV } });
    kit = await openCredentialKit(t, chain);
    receiver = await WebhookReceiver.start();
  }, 120_000);
  afterAll(async () => {
    await kit?.close();
    await t?.close();
    await receiver?.close();
    await chain?.close();
  });

  it('the watcher revokes it on chain and the webhook says credential_revoked', async () => {
    const { token, secret } = await account();
    const wallet = Wallet.createRandom().address;
    const credential = await kit.issue(wallet);
    await postVerify(t, token, await kit.prove(token, credential)).expect(200);
    expect(await chain.isActive(wallet)).toBe(true);

    // The issuer revokes the credential (its leaf only: the session is left to the watcher).
    await t.app.get(DemoIssuerService).revoke(wallet);
    const { webhook, audit } = await revokedBecause(token, secret, wallet);
    expect(webhook).toMatchObject({ walletAddress: wallet, reason: 'credential_revoked' });
    expect(audit.data.reason).toBe('credential_revoked');
    expect(await chain.isActive(wallet)).toBe(false);
  });

  /** A fresh account listening to session.revoked: its token and webhook secret. */
  async function account(): Promise<{ token: string; secret: string }> {
    const token = await login(t, await t.createAccount());
    const hook = await request(t.server)
      .post('/api/v1/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .send({ url: receiver.url, events: ['session.revoked'] })
      .expect(201);
    return { token, secret: hook.body.secret };
  }

  /** The session.revoked webhook for `wallet` (within the watcher's interval) and its audit event. */
  async function revokedBecause(token: string, secret: string, wallet: string) {
    const [delivered] = await receiver.waitFor(
      (h) => typeOf(h) === 'session.revoked' && h.body.includes(wallet),
    );
    const audit = await request(t.server)
      .get('/api/v1/audit-events')
      .query({ type: 'session.revoked' })
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const event = audit.body.items.find(
      (e: { data: { walletAddress: string } }) => e.data.walletAddress === wallet,
    );
    return { webhook: verified(secret, delivered).data, audit: event };
  }

  it('an attestation revoked upstream: the session it opened is revoked within one interval (attestation_revoked); another stays', async () => {
    const { token, secret } = await account();
    const [revokedWallet, keptWallet] = [
      Wallet.createRandom().address,
      Wallet.createRandom().address,
    ];
    // A record of a session that ended long ago: the next activation clears it.
    const records = t.app.get(DataSource).getRepository(AttestationSession);
    const stale = await records.save({
      walletAddress: Wallet.createRandom().address,
      sessionUntil: Math.floor(Date.now() / 1000) - 2 * 86_400,
      source: 'verified-account',
      uid: `0x${'ab'.repeat(32)}`,
    });
    const uids: string[] = [];
    for (const wallet of [revokedWallet, keptWallet]) {
      const { uid } = (await kit.cli(`attest --kind account --wallet ${wallet}`)) as {
        uid: string;
      };
      uids.push(uid);
      const opened = await request(t.server)
        .post('/api/v1/onboarding/activate-session-attestation')
        .set('Authorization', `Bearer ${token}`)
        .send({ walletAddress: wallet })
        .expect(200);
      expect(opened.body.source).toMatchObject({ kind: 'attestation', uid });
      expect(await chain.isActive(wallet)).toBe(true);
    }
    // What the watcher reads: which attestation opened each current session.
    expect(await records.findBy({ uid: In(uids) })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ walletAddress: revokedWallet, uid: uids[0] }),
        expect.objectContaining({ walletAddress: keptWallet, uid: uids[1] }),
      ]),
    );
    expect(await records.findOneBy({ id: stale.id })).toBeNull();

    // The watcher's read: every uid asked of EAS in one eth_call (a spy, not a stand-in). The
    // watcher's own passes (every second here) make the same read meanwhile: each read that asks
    // about these uids asks about all of them at once.
    const reader = t.app.get(AttestationReaderService);
    const calls = jest.spyOn(t.app.get(ChainReaderService), 'aggregate3');
    try {
      expect(await reader.revokedAttestations(uids)).toEqual(new Set());
      const asking = calls.mock.calls
        .map(([batch]) => batch.map((c) => c.callData.toLowerCase()).join(''))
        .filter((data) => uids.some((uid) => data.includes(uid.slice(2).toLowerCase())));
      expect(asking.length).toBeGreaterThanOrEqual(1);
      for (const data of asking)
        for (const uid of uids) expect(data).toContain(uid.slice(2).toLowerCase());
    } finally {
      calls.mockRestore();
    }

    expect(await kit.cli(`attest revoke --uid ${uids[0]}`)).toEqual({
      uid: uids[0],
      revoked: true,
    });
    const { webhook, audit } = await revokedBecause(token, secret, revokedWallet);
    expect(webhook).toMatchObject({
      walletAddress: revokedWallet,
      reason: 'attestation_revoked',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(audit).toMatchObject({
      type: 'session.revoked',
      actor: expect.objectContaining({ type: 'system' }),
      data: expect.objectContaining({ reason: 'attestation_revoked' }),
    });
    expect(await chain.isActive(revokedWallet)).toBe(false);

    // A full pass later, the session whose attestation stands is still open.
    await t.app.get(ScreeningWatcher).runOnce();
    expect(await chain.isActive(keptWallet)).toBe(true);
  });

  it('a policy names a registered issuer: another issuer is refused, acme-kyc accepted; once the operator revokes acme-kyc its session does not outlive one interval (issuer_revoked)', async () => {
    const { token, secret } = await account();
    const acme = await kit.newIssuerKey();
    const other = await kit.newIssuerKey();
    await kit.cli(`issuers add --name acme-kyc --public-key ${acme.publicKey}`);
    await kit.cli(`issuers add --name other-kyc --public-key ${other.publicKey}`);

    // The registered issuers are policy sources: listed, accepted by PUT and by the dry run.
    const policy = { sources: { mode: 'any', names: ['acme-kyc'] }, countries: {} };
    const put = await request(t.server)
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${token}`)
      .send({ ...policy, minSessionSeconds: 0 })
      .expect(200);
    expect(put.body.sources).toEqual({ mode: 'any', names: ['acme-kyc'] });
    expect(put.body.knownSources).toEqual(
      expect.arrayContaining([
        { name: 'default', kind: 'zk' },
        { name: 'acme-kyc', kind: 'zk' },
        { name: 'other-kyc', kind: 'zk' },
      ]),
    );
    const unknown = await request(t.server)
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${token}`)
      .send({
        sources: { mode: 'any', names: ['nobody-kyc'] },
        countries: {},
        minSessionSeconds: 0,
      })
      .expect(400);
    expect(unknown.body).toMatchObject({ code: 'INVALID_PARAMS' });
    expect(unknown.body.details).toContainEqual(
      expect.objectContaining({ field: 'sources.names', message: 'unknown: nobody-kyc' }),
    );

    const refusedWallet = Wallet.createRandom().address;
    const refused = await postVerify(
      t,
      token,
      await kit.prove(token, await kit.issue(refusedWallet, undefined, other)),
    ).expect(403);
    expect(refused.body).toMatchObject({ code: 'COMPLIANCE_POLICY_REFUSED', phase: 'preflight' });
    expect(refused.body.details).toContainEqual(expect.objectContaining({ rule: 'sources.any' }));
    expect(await chain.isActive(refusedWallet)).toBe(false);

    const wallet = Wallet.createRandom().address;
    const accepted = await postVerify(
      t,
      token,
      await kit.prove(token, await kit.issue(wallet, undefined, acme)),
    ).expect(200);
    expect(accepted.body.issuer).toEqual({ name: 'acme-kyc' });
    expect(await chain.isActive(wallet)).toBe(true);

    // The issuer's revocation as `issuers revoke` writes it, without the CLI's own ending of the
    // sessions (as when that failed, or the session was opened on another replica).
    await t.app.get(IssuersService).revoke('acme-kyc');
    const { webhook, audit } = await revokedBecause(token, secret, wallet);
    expect(webhook).toMatchObject({ walletAddress: wallet, reason: 'issuer_revoked' });
    expect(audit).toMatchObject({
      actor: expect.objectContaining({ type: 'system' }),
      data: expect.objectContaining({ reason: 'issuer_revoked' }),
    });
    expect(await chain.isActive(wallet)).toBe(false);
  });
});
