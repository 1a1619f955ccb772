/**
 * Issue 41: sanctions act at the next trade. A wallet with a session swaps; the devnet's oracle
 * flags it (`npm run cli -- sanctions add`); its next swap, signed and sent straight to the chain,
 * reverts with the hook's WalletSanctioned; within one screening interval (1 s here) the watcher
 * revokes its session on chain, the session.revoked webhook says why and the audit trail has it;
 * preflight, build, relay and activation all say WALLET_SANCTIONED; unflagged, it is activated
 * again. On PostgreSQL, two replicas revoke a flagged wallet once.
 */
import { Contract, Transaction, Wallet, id as topicOf } from 'ethers';
import request from 'supertest';
import { COMPLIANCE_REGISTRY } from '../../src/chain/abi/compliance-registry';
import { decodeRevert } from '../../src/chain/encoding/revert-decoder';
import type { UnsignedTx } from '../../src/defi-builder/encoding/approvals';
import { sanctionsCommand } from '../../src/cli/sanctions-command';
import { DemoIssuerService } from '../../src/compliance/credentials/demo-issuer.service';
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

    // Preflight, build, activation: 403 WALLET_SANCTIONED naming the wallet.
    const preflight = await request(t.server)
      .get(`/api/v1/defi/preflight/${user.address}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(403);
    expect(preflight.body).toMatchObject({ code: 'WALLET_SANCTIONED', phase: 'preflight' });
    expect(preflight.body.message).toContain(user.address);
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

describe('Screening: a revoked credential ends the session it opened', () => {
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
    const token = await login(t, await t.createAccount());
    const hook = await request(t.server)
      .post('/api/v1/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .send({ url: receiver.url, events: ['session.revoked'] })
      .expect(201);
    const wallet = Wallet.createRandom().address;
    const credential = await kit.issue(wallet);
    await postVerify(t, token, await kit.prove(token, credential)).expect(200);
    expect(await chain.isActive(wallet)).toBe(true);

    // The issuer revokes the credential (its leaf only: the session is left to the watcher).
    await t.app.get(DemoIssuerService).revoke(wallet);
    const [delivered] = await receiver.waitFor(
      (h) => typeOf(h) === 'session.revoked' && h.body.includes(wallet),
    );
    expect(verified(hook.body.secret, delivered).data).toMatchObject({
      walletAddress: wallet,
      reason: 'credential_revoked',
    });
    expect(await chain.isActive(wallet)).toBe(false);
  });
});
