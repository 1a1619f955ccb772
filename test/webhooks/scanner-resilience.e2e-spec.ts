/**
 * The event scanners (session.expiring, transaction.confirmed/reverted) handle each row on its
 * own: one whose event cannot be recorded neither stops the other accounts' events in the same
 * pass nor is retried at every tick.
 */
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { RelayedTransaction } from '../../src/defi-builder/broadcast/relayed-transaction.entity';
import { RelayedTransactionWatcher } from '../../src/defi-builder/broadcast/relayed-transaction.watcher';
import { ActivityLog } from '../../src/events/activity-log';
import { SessionExpiryScanner } from '../../src/webhooks/scanners/session-expiry.scanner';
import { WatchedSession } from '../../src/webhooks/scanners/watched-session.entity';
import { createTestApp, TestApp } from '../helpers/app';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';

describe('Webhook scanners: a failing row does not block the others', () => {
  let chain: DevnetHandle;
  let t: TestApp;
  /** Accounts whose events the test sink refuses (a poisoned row), and how often it refused. */
  const poisoned = new Set<string>();
  let refusals = 0;

  beforeAll(async () => {
    chain = await acquireDevnet();
    // The timers stay out of the way: the test runs each pass itself.
    t = await createTestApp({ env: { ...chain.env, WEBHOOK_SCAN_INTERVAL_MS: '3600000' } });
    t.app.get(ActivityLog).addSink({
      name: 'test-poisoned-rows',
      write: async (event) => {
        if (!poisoned.has(event.accountId)) return;
        refusals += 1;
        throw new Error('this row cannot be recorded');
      },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.release();
  });
  beforeEach(() => {
    poisoned.clear();
    refusals = 0;
  });

  it('session.expiring: the other sessions are recorded; the failing one waits instead of retrying every tick', async () => {
    const bad = await t.createAccount();
    const good = await t.createAccount();
    poisoned.add(bad.accountId);
    const sessions = t.app.get(DataSource).getRepository(WatchedSession);
    const now = await chain.chainTime();
    const badWallet = Wallet.createRandom().address;
    const goodWallet = Wallet.createRandom().address;
    // The failing one comes first (sooner to expire).
    await sessions.insert([
      {
        walletAddress: badWallet,
        accountId: bad.accountId,
        activeUntil: now + 60,
        expiringSentMs: null,
      },
      {
        walletAddress: goodWallet,
        accountId: good.accountId,
        activeUntil: now + 120,
        expiringSentMs: null,
      },
    ]);
    const scanner = t.app.get(SessionExpiryScanner);
    expect(await scanner.runOnce()).toBe(1);
    expect(
      (await sessions.findOneByOrFail({ walletAddress: goodWallet })).expiringSentMs,
    ).not.toBeNull();
    expect(
      (await sessions.findOneByOrFail({ walletAddress: badWallet })).expiringSentMs,
    ).toBeNull();
    expect(refusals).toBe(1);
    // The next passes skip it for a while (backoff), so it costs nothing per tick.
    expect(await scanner.runOnce()).toBe(0);
    expect(await scanner.runOnce()).toBe(0);
    expect(refusals).toBe(1);
  });

  it('transaction outcomes: the other transactions settle; the failing one waits instead of retrying every tick', async () => {
    const bad = await t.createAccount();
    const good = await t.createAccount();
    poisoned.add(bad.accountId);
    const [from, to] = [chain.wallets[7], chain.wallets[8]];
    const mined: string[] = [];
    for (let i = 0; i < 2; i++) {
      const sent = await from.sendTransaction({ to: to.address, value: 1n });
      await sent.wait();
      mined.push(sent.hash.toLowerCase());
    }
    const rows = t.app.get(DataSource).getRepository(RelayedTransaction);
    const relayedMs = Date.now();
    await rows.insert(
      [bad.accountId, good.accountId].map((accountId, i) => ({
        txHash: mined[i],
        accountId,
        apiKeyId: null,
        fromAddress: from.address,
        kind: 'unknown',
        state: 'pending' as const,
        relayedMs: relayedMs + i, // the failing one is older: read first
        settledMs: null,
      })),
    );
    const watcher = t.app.get(RelayedTransactionWatcher);
    expect(await watcher.runOnce()).toBe(1);
    expect((await rows.findOneByOrFail({ txHash: mined[1] })).state).toBe('confirmed');
    expect((await rows.findOneByOrFail({ txHash: mined[0] })).state).toBe('pending');
    expect(refusals).toBe(1);
    expect(await watcher.runOnce()).toBe(0);
    expect(await watcher.runOnce()).toBe(0);
    expect(refusals).toBe(1);
  });
});
