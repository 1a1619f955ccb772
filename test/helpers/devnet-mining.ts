/**
 * Drives the devnet's block production (Hardhat's EDR methods): automine off to hold transactions
 * in the mempool, interval mining for a real chain's block time, the next block's base fee.
 * Suites that change it put automine back before releasing the devnet.
 */
export async function devnetRpc(
  url: string,
  method: string,
  params: unknown[] = [],
): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** One block every `ms` instead of one per transaction; `stop` restores automine. */
export async function mineEvery(url: string, ms: number): Promise<{ stop(): Promise<void> }> {
  await devnetRpc(url, 'evm_setAutomine', [false]);
  await devnetRpc(url, 'evm_setIntervalMining', [ms]);
  return {
    async stop() {
      await devnetRpc(url, 'evm_setIntervalMining', [0]);
      await devnetRpc(url, 'evm_setAutomine', [true]);
    },
  };
}
