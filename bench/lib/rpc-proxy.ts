import { join } from 'node:path';
import { ROOT } from './bench-stack';
import { spawnServer } from './spawn-server';

/** POSTs JSON and parses the answer (the proxy's control endpoint, the devnet's counters). */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as T;
}

/**
 * Starts the caching proxy (bench/rpc-cache-proxy.ts) in its own process, in front of
 * `upstream`; `setProxyCache(url, true)` then answers repeated reads from memory, so a build's
 * cost is the service's, not the EVM's.
 */
export function startRpcProxy(upstream: string, stallsFile?: string) {
  const probe = stallsFile ? ['-r', join(ROOT, 'bench/lib/stall-probe.cjs')] : [];
  return spawnServer(
    process.execPath,
    [...probe, '-r', 'ts-node/register', 'bench/rpc-cache-proxy.ts', upstream],
    { ...process.env, TS_NODE_SWC: 'true', BENCH_STALLS: stallsFile, BENCH_STALLS_WHO: 'proxy' },
    /READY (\d+)/,
    ROOT,
  );
}

export function setProxyCache(proxyUrl: string, on: boolean): Promise<unknown> {
  return postJson(`${proxyUrl}/__proxy/cache`, { on });
}
