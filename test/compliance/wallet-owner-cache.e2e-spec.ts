import { getAddress, hexlify, randomBytes } from 'ethers';
import { DataSource } from 'typeorm';
import {
  WalletOwnerCache,
  WALLET_OWNER_CACHE_MS,
} from '../../src/compliance/wallets/wallet-owner-cache';
import { WalletsService } from '../../src/compliance/wallets/wallets.service';
import { createTestApp, TestApp } from '../helpers/app';
import { uniqueRedisPrefix } from '../helpers/auth';
import { TcpProxy } from '../helpers/tcp-proxy';
import { pollUntil } from '../helpers/wait';

const REDIS_URL = process.env.TEST_REDIS_URL;
const describeRedis = REDIS_URL ? describe : describe.skip;

/**
 * Issue 59: with Redis, a wallet's owner is read from the database once and kept, and a binding
 * made on any instance reaches the others at once (Redis pub/sub), not after WALLET_OWNER_CACHE_MS.
 * Two instances on one database and one Redis; instance B reaches Redis through a TCP proxy, so
 * the test can take Redis away from it.
 */
describeRedis('Wallet owners cached across instances (Redis pub/sub)', () => {
  let a: TestApp;
  let b: TestApp;
  let proxy: TcpProxy;
  /** SELECTs of a wallet's owner that instance B sent to the database. */
  let reads = 0;

  beforeAll(async () => {
    const redis = new URL(REDIS_URL!);
    proxy = await new TcpProxy(Number(redis.port || 6379), redis.hostname).up();
    const prefix = uniqueRedisPrefix('wallet-owner');
    a = await createTestApp({ env: { REDIS_URL, REDIS_KEY_PREFIX: prefix } });
    b = await createTestApp({
      db: a.db,
      env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_KEY_PREFIX: prefix },
    });
    const manager = b.app.get(DataSource).manager;
    const query = manager.query.bind(manager);
    manager.query = ((sql: string, ...rest: unknown[]) => {
      if (/SELECT account_id FROM wallets/.test(sql)) reads += 1;
      return (query as (...args: unknown[]) => unknown)(sql, ...rest);
    }) as typeof manager.query;
    for (const t of [a, b])
      await pollUntil('the cache to subscribe', () => t.app.get(WalletOwnerCache).active, Boolean);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await proxy?.down();
  });

  const newWallet = () => getAddress(hexlify(randomBytes(20)));

  it('reads an owner once, and hears of a binding on another instance before its entry expires', async () => {
    const [x, y] = [await a.createAccount(), await a.createAccount()];
    const wallet = newWallet();
    const onB = b.app.get(WalletsService);

    reads = 0;
    const cachedAt = Date.now();
    expect(await onB.ownerOf(wallet)).toBeNull();
    expect(await onB.assertNotBoundElsewhere(wallet, y.accountId)).toBe(false);
    expect(reads).toBe(1);

    expect(await a.app.get(WalletsService).bind(wallet, x.accountId, 'keep')).toMatchObject({
      changed: true,
    });
    await pollUntil(
      'B to see the binding',
      () => onB.ownerOf(wallet),
      (o) => o === x.accountId,
    );
    // Seen through the message, not because B's entry ran out.
    expect(Date.now() - cachedAt).toBeLessThan(WALLET_OWNER_CACHE_MS);
    await expect(onB.assertNotBoundElsewhere(wallet, y.accountId)).rejects.toMatchObject({
      code: 'INSTITUTION_OWNERSHIP_MISMATCH',
      status: 403,
    });
    expect(await onB.assertNotBoundElsewhere(wallet, x.accountId)).toBe(true);

    // A rebinding (demo policy) too; binding it again to the same account changes nothing.
    const readsBefore = reads;
    await a.app.get(WalletsService).bind(wallet, y.accountId, 'rebind');
    await pollUntil(
      'B to see the rebinding',
      () => onB.ownerOf(wallet),
      (o) => o === y.accountId,
    );
    await onB.ownerOf(wallet);
    expect(await a.app.get(WalletsService).bind(wallet, y.accountId, 'rebind')).toMatchObject({
      changed: false,
    });
    expect(await onB.ownerOf(wallet)).toBe(y.accountId);
    // One read after the change was heard of, then answers from the cache.
    expect(reads - readsBefore).toBe(1);
  });

  it('reads the database on every build while Redis is away, and caches again once it is back', async () => {
    const wallet = newWallet();
    const onB = b.app.get(WalletsService);
    const cache = b.app.get(WalletOwnerCache);
    await onB.ownerOf(wallet);

    await proxy.down();
    await pollUntil(
      'B to stop caching',
      () => cache.active,
      (active) => !active,
    );
    // Bound on A meanwhile: B, which could not hear of it, reads it from the database.
    const x = await a.createAccount();
    await a.app.get(WalletsService).bind(wallet, x.accountId, 'keep');
    reads = 0;
    expect(await onB.ownerOf(wallet)).toBe(x.accountId);
    expect(await onB.ownerOf(wallet)).toBe(x.accountId);
    expect(reads).toBe(2);

    await proxy.up();
    await pollUntil('B to cache again', () => cache.active, Boolean, { timeoutMs: 15_000 });
    reads = 0;
    await onB.ownerOf(wallet);
    await onB.ownerOf(wallet);
    expect(reads).toBe(1);
  });
});
