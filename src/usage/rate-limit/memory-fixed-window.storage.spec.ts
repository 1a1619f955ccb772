import { MemoryFixedWindowStorage } from './memory-fixed-window.storage';

describe(MemoryFixedWindowStorage.name, () => {
  it('counts hits in a fixed window that starts with the first hit and resets after ttl', async () => {
    let now = 1_000_000;
    const storage = new MemoryFixedWindowStorage(() => now);
    const hit = () => storage.increment('k', 60_000, 2);
    expect(await hit()).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    now += 30_000;
    expect(await hit()).toMatchObject({ totalHits: 2, timeToExpire: 30, isBlocked: false });
    now += 29_500;
    expect(await hit()).toEqual({
      totalHits: 3,
      timeToExpire: 1,
      isBlocked: true,
      timeToBlockExpire: 1,
    });
    now += 500; // the window ends exactly 60 s after its first hit: the count starts again
    expect(await hit()).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('keeps keys apart and forgets finished windows', async () => {
    let now = 0;
    const storage = new MemoryFixedWindowStorage(() => now);
    await storage.increment('a', 1_000, 5);
    await storage.increment('b', 1_000, 5);
    expect((await storage.increment('a', 1_000, 5)).totalHits).toBe(2);
    expect(storage.size).toBe(2);
    now = 120_000;
    await storage.increment('c', 1_000, 5);
    expect(storage.size).toBe(1);
  });
});
