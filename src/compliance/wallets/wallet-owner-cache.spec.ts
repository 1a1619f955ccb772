import type { RedisConfig } from '../../config/redis.config';
import { WALLET_OWNER_CACHE_MS, WalletOwnerCache } from './wallet-owner-cache';

/**
 * The cache's own rules, with the subscription taken as given (the e2e spec runs it against Redis
 * with two instances): what it keeps, for how long, and what a change overtakes.
 */
describe('WalletOwnerCache', () => {
  const config = { keyPrefix: 'cgk:' } as RedisConfig;
  const wallet = '0x00000000000000000000000000000000000000Aa';
  let cache: WalletOwnerCache;
  let reads: number;
  const reader = (owner: string | null) => async () => {
    reads += 1;
    return owner;
  };

  beforeEach(() => {
    cache = new WalletOwnerCache(config);
    (cache as unknown as { subscribed: boolean }).subscribed = true;
    reads = 0;
  });
  afterEach(() => jest.restoreAllMocks());

  it('keeps what it read until it expires, and nothing while not subscribed', async () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    expect(await cache.ownerOf(wallet, reader('acc-1'))).toBe('acc-1');
    expect(await cache.ownerOf(wallet, reader('acc-2'))).toBe('acc-1');
    expect(reads).toBe(1);
    now.mockReturnValue(1_000_000 + WALLET_OWNER_CACHE_MS);
    expect(await cache.ownerOf(wallet, reader('acc-2'))).toBe('acc-2');
    expect(reads).toBe(2);

    const off = new WalletOwnerCache(config);
    expect(off.active).toBe(false);
    await off.ownerOf(wallet, reader(null));
    await off.ownerOf(wallet, reader(null));
    expect(reads).toBe(4);
  });

  it('forgets a wallet whose owner changed, and does not keep a read the change overtook', async () => {
    expect(await cache.ownerOf(wallet, reader(null))).toBeNull();
    await cache.changed(wallet);
    expect(await cache.ownerOf(wallet, reader('acc-1'))).toBe('acc-1');

    // A read that started before a change and answers after it: answered, not kept.
    let answer!: (owner: string) => void;
    const late = cache.ownerOf('0x00000000000000000000000000000000000000Bb', () => {
      reads += 1;
      return new Promise<string>((resolve) => (answer = resolve));
    });
    await cache.changed('0x00000000000000000000000000000000000000Bb');
    answer('the old owner');
    expect(await late).toBe('the old owner');
    expect(
      await cache.ownerOf('0x00000000000000000000000000000000000000Bb', reader('the new owner')),
    ).toBe('the new owner');
  });
});
