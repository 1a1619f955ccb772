/**
 * eth_getLogs in block pages: nodes cap one request's block range (often 10,000 blocks) or its
 * result size, and a long history read in one request can time out. Pure: the ranges and the
 * order of the results; the chain reader runs the requests.
 */

export interface BlockRange {
  fromBlock: number;
  toBlock: number;
}

/** [fromBlock, toBlock] inclusive, cut into consecutive pages of at most `pageBlocks` blocks. */
export function blockPages(fromBlock: number, toBlock: number, pageBlocks: number): BlockRange[] {
  if (!Number.isSafeInteger(pageBlocks) || pageBlocks < 1)
    throw new RangeError(`pageBlocks must be a positive integer (got ${pageBlocks})`);
  const pages: BlockRange[] = [];
  for (let from = fromBlock; from <= toBlock; from += pageBlocks)
    pages.push({ fromBlock: from, toBlock: Math.min(from + pageBlocks - 1, toBlock) });
  return pages;
}

/**
 * Runs `fetch` over every page, at most `concurrency` at a time, and returns the results in
 * block order (a failed page fails the whole read: a partial history would hide positions).
 */
export async function readPages<T>(
  pages: readonly BlockRange[],
  fetch: (page: BlockRange) => Promise<T[]>,
  concurrency: number,
): Promise<T[]> {
  const results: T[][] = new Array(pages.length);
  let next = 0;
  const worker = async () => {
    while (next < pages.length) {
      const i = next++;
      results[i] = await fetch(pages[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pages.length) }, worker));
  return results.flat();
}
