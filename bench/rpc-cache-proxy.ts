/**
 * The "instant RPC" of the service-only bench: a JSON-RPC proxy in its own process between the
 * service and the devnet. It forwards everything until caching is switched on (POST
 * /__proxy/cache with `{"on": true}`), then answers every repeated read from memory, so a build's
 * RPC round trip costs microseconds and what the bench measures is the service's own work.
 * Writes (eth_sendRawTransaction) and nonce reads are never cached. Prints `READY <port>`.
 *
 * `node -r ts-node/register bench/rpc-cache-proxy.ts <upstream url>` (TS_NODE_SWC=true).
 */
import { Agent, createServer, IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync } from 'node:fs';

const upstream = new URL(process.argv[2] ?? '');
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
/** Never answered from memory: what changes the chain or depends on its exact head. */
const UNCACHED = new Set([
  'eth_sendRawTransaction',
  'eth_sendTransaction',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
]);

interface RpcRequest {
  jsonrpc: string;
  id: unknown;
  method: string;
  params?: unknown[];
}

let caching = false;
const cache = new Map<string, string>();
const stats = { hits: 0, misses: 0 };
/** Calls per method, for the bench's RPC-per-request column. */
const perMethod: Record<string, number> = {};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function forward(body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const out = request(
      {
        agent,
        host: upstream.hostname,
        port: upstream.port,
        path: upstream.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end(body);
  });
}

/** One call: from memory when caching and seen before (the result only; the id is the caller's). */
async function answer(call: RpcRequest): Promise<string> {
  const key = `${call.method}\u0000${JSON.stringify(call.params ?? [])}`;
  perMethod[call.method] = (perMethod[call.method] ?? 0) + 1;
  const cacheable = caching && !UNCACHED.has(call.method);
  const hit = cacheable ? cache.get(key) : undefined;
  if (hit !== undefined) {
    stats.hits += 1;
    return `{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},${hit}}`;
  }
  stats.misses += 1;
  const started = Date.now();
  const raw = await forward(JSON.stringify(call));
  if (caching && process.env.BENCH_STALLS)
    appendFileSync(
      process.env.BENCH_STALLS,
      `${started} proxy:MISS ${call.method} ${Date.now() - started}ms\n`,
    );
  const parsed = JSON.parse(raw) as { result?: unknown; error?: unknown };
  const payload =
    'error' in parsed
      ? `"error":${JSON.stringify(parsed.error)}`
      : `"result":${JSON.stringify(parsed.result)}`;
  if (cacheable) cache.set(key, payload);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},${payload}}`;
}

const server = createServer((req, res) => {
  void (async () => {
    try {
      const body = await readBody(req);
      if (req.url === '/__proxy/cache') {
        caching = (JSON.parse(body) as { on: boolean }).on;
        if (!caching) cache.clear();
        res.end(JSON.stringify({ caching, ...stats }));
        return;
      }
      if (req.url === '/__proxy/stats') {
        res.end(JSON.stringify({ caching, entries: cache.size, ...stats, perMethod }));
        return;
      }
      const parsed = JSON.parse(body) as RpcRequest | RpcRequest[];
      const out = Array.isArray(parsed)
        ? `[${(await Promise.all(parsed.map(answer))).join(',')}]`
        : await answer(parsed);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(out);
    } catch (err) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(err));
    }
  })();
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`);
});
