import { sharedDevnet } from '../../src/chain/devnet/devnet-process';
async function rpc(url: string, method: string, params: unknown[] = []) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await r.json()) as { result: unknown }).result;
}
(async () => {
  let t = Date.now();
  const d = await sharedDevnet();
  console.log('spawn child devnet ready', Date.now() - t, 'ms', d.timings);
  for (let i = 0; i < 3; i++) {
    t = Date.now();
    const id = await rpc(d.rpcUrl, 'evm_snapshot');
    await rpc(d.rpcUrl, 'evm_mine');
    const t2 = Date.now();
    await rpc(d.rpcUrl, 'evm_revert', [id]);
    console.log('snapshot+mine', t2 - t, 'ms; revert', Date.now() - t2, 'ms');
  }
  process.exit(0);
})();
