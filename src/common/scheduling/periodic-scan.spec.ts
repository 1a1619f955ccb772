import { Logger } from '@nestjs/common';
import { ItemBackoff } from './item-backoff';
import { PeriodicScan } from './periodic-scan';

/** A scan over fixed items whose handler refuses the ones named in `poisoned`. */
class ItemsScan extends PeriodicScan {
  readonly backoff = new ItemBackoff(60_000, 3_600_000);
  readonly handled: string[] = [];
  passes = 0;

  constructor(
    private readonly items: string[],
    private readonly poisoned: Set<string>,
  ) {
    super(3_600_000);
  }

  protected async scan(): Promise<number> {
    this.passes += 1;
    const options = {
      backoff: this.backoff,
      limit: 10,
      keyOf: (item: string) => item,
      describe: (item: string) => ({ item }),
      failure: 'refused',
    };
    return this.eachReady(this.items, options, async (item) => {
      if (this.poisoned.has(item)) throw new Error(`${item} refused`);
      this.handled.push(item);
      return true;
    });
  }
}

describe('PeriodicScan', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('handles every item but a failing one, which waits for its backoff instead of every pass', async () => {
    const scan = new ItemsScan(['a', 'b', 'c'], new Set(['b']));
    expect(await scan.runOnce()).toBe(2);
    expect(scan.handled).toEqual(['a', 'c']);
    expect(scan.backoff.waiting()).toEqual(['b']);
    // The next pass does not try b again before its retry time.
    expect(await scan.runOnce()).toBe(2);
    expect(scan.handled).toEqual(['a', 'c', 'a', 'c']);
  });

  it('shares a pass between overlapping calls, and a failing pass answers 0 and leaves the next free', async () => {
    const scan = new ItemsScan(['a'], new Set());
    const [first, second] = await Promise.all([scan.runOnce(), scan.runOnce()]);
    expect([first, second, scan.passes]).toEqual([1, 1, 1]);
    jest
      .spyOn(scan as unknown as { scan: () => Promise<number> }, 'scan')
      .mockRejectedValueOnce(new Error('database unavailable'));
    expect(await scan.runOnce()).toBe(0);
    expect(await scan.runOnce()).toBe(1);
  });

  it('stops its timer at shutdown after the pass in flight', async () => {
    const scan = new ItemsScan(['a'], new Set());
    scan.onApplicationBootstrap();
    const pass = scan.runOnce();
    await scan.beforeApplicationShutdown();
    expect(await pass).toBe(1);
  });
});
