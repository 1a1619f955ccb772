import { blockPages, readPages } from './log-pages';

describe('blockPages', () => {
  it('cuts [from, to] into consecutive inclusive pages of at most pageBlocks blocks', () => {
    expect(blockPages(0, 9, 4)).toEqual([
      { fromBlock: 0, toBlock: 3 },
      { fromBlock: 4, toBlock: 7 },
      { fromBlock: 8, toBlock: 9 },
    ]);
    expect(blockPages(5, 5, 10_000)).toEqual([{ fromBlock: 5, toBlock: 5 }]);
    expect(blockPages(10, 9, 100)).toEqual([]); // start block past the head
  });

  it('refuses a page size that is not a positive integer', () => {
    expect(() => blockPages(0, 10, 0)).toThrow(RangeError);
    expect(() => blockPages(0, 10, 1.5)).toThrow(RangeError);
  });
});

describe('readPages', () => {
  it('returns the results in block order whatever order the pages answer in, with bounded concurrency', async () => {
    const pages = blockPages(0, 49, 10);
    let inFlight = 0;
    let maxInFlight = 0;
    const logs = await readPages(
      pages,
      async (page) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        // Later pages answer first.
        await new Promise((resolve) => setImmediate(resolve));
        if (page.fromBlock < 20) await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return [page.fromBlock, page.toBlock];
      },
      2,
    );
    expect(logs).toEqual([0, 9, 10, 19, 20, 29, 30, 39, 40, 49]);
    expect(maxInFlight).toBe(2);
  });

  it('fails the whole read when one page fails (a partial history would hide positions)', async () => {
    await expect(
      readPages(
        blockPages(0, 29, 10),
        async (page) => {
          if (page.fromBlock === 10) throw new Error('range too large');
          return [page.fromBlock];
        },
        4,
      ),
    ).rejects.toThrow('range too large');
  });
});
