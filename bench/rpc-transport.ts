/**
 * `npx ts-node --swc bench/rpc-transport.ts [N]`: CPU and wall time per JSON-RPC call of the
 * candidate transports to the node (a devnet behind the caching proxy, both in their own processes): the service's read
 * transport (src/chain/json-rpc-http.ts, undici's Pool.request), the same client on node:http
 * with a keep-alive Agent (its previous version, inlined here), ethers' JsonRpcProvider over a
 * keep-alive http.Agent (FetchRequest.createGetUrlFunc), and a lean client over Node's fetch (the
 * removed src/chain/json-rpc-client.ts, inlined here). The call is the wallet-read batch every
 * build sends (one Multicall3 aggregate3 eth_call).
 */
import { Agent, request as httpRequest } from 'node:http';
import { FetchRequest, JsonRpcProvider } from 'ethers';
import { join } from 'node:path';
import { spawnDevnet } from '../src/chain/devnet/devnet-process';
import { spawnServer } from './lib/spawn-server';
import { encodeAggregate3 } from '../src/chain/encoding/multicall';
import { createJsonRpcTransport } from '../src/chain/json-rpc-http';
import { walletReadCalls } from '../src/chain/encoding/wallet-reads';
import { devnetNetworkDefinition } from '../src/chain/network/network-definition';

/**
 * `concurrency` calls in flight at once (1: sequential; a service under load has many), `n` in
 * all; CPU of this process only (the devnet runs in its own).
 */
async function measure(
  label: string,
  n: number,
  call: () => Promise<unknown>,
  concurrency: number,
): Promise<void> {
  const run = (count: number) =>
    Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = 0; i < count / concurrency; i += 1) await call();
      }),
    );
  await run(200); // warm-up: connections, JIT
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await run(n);
  const wallUs = Number(process.hrtime.bigint() - started) / 1e3 / n;
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / n;
  process.stdout.write(
    `${label.padEnd(44)} x${String(concurrency).padEnd(2)} cpu ${cpuUs.toFixed(0).padStart(5)} us/call   wall ${wallUs.toFixed(0).padStart(5)} us/call\n`,
  );
}

/** What src/chain/json-rpc-client.ts did: one fetch per call (undici keeps connections alive). */
function fetchClient(url: string) {
  let id = 1;
  return async (method: string, params: unknown[]): Promise<unknown> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }),
      signal: AbortSignal.timeout(3_000),
    });
    const body = (await response.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(body.error.message);
    return body.result;
  };
}

/** The read transport before undici: one node:http request per call on a keep-alive agent. */
function nodeHttpClient(rpcUrl: string) {
  const url = new URL(rpcUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let id = 1;
  return (method: string, params: unknown[]): Promise<unknown> => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method, params });
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          agent,
          method: 'POST',
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const answer = JSON.parse(Buffer.concat(chunks).toString()) as {
              result?: unknown;
              error?: { message: string };
            };
            if (answer.error) reject(new Error(answer.error.message));
            else resolve(answer.result);
          });
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(body);
    });
  };
}

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 3000);
  const devnet = await spawnDevnet({ port: 0 });
  // The service-only bench's caching proxy in front of the devnet: every call after the first is
  // answered from memory, at once, so the figures are the client's own cost (the devnet's EVM and
  // its log output excluded), as the service sees it in bench/run.ts's service-only mode.
  const proxy = await spawnServer(
    process.execPath,
    ['-r', 'ts-node/register', 'bench/rpc-cache-proxy.ts', devnet.rpcUrl],
    { ...process.env, TS_NODE_SWC: 'true' },
    /READY (\d+)/,
    join(__dirname, '..'),
  );
  const rpcUrl = `http://127.0.0.1:${proxy.port}`;
  await fetch(`${rpcUrl}/__proxy/cache`, { method: 'POST', body: JSON.stringify({ on: true }) });
  try {
    const network = devnetNetworkDefinition(devnet.deployment);
    const tx = {
      to: network.contracts.multicall3,
      data: encodeAggregate3(walletReadCalls(network, devnet.deployment.accounts.funded[1])),
    };
    const request = new FetchRequest(rpcUrl);
    request.getUrlFunc = FetchRequest.createGetUrlFunc({
      agent: new Agent({ keepAlive: true, maxSockets: 16 }),
    });
    const provider = new JsonRpcProvider(request, network.chainId, {
      staticNetwork: true,
      batchMaxCount: 1,
      cacheTimeout: -1,
    });
    const client = fetchClient(rpcUrl);
    const lean = createJsonRpcTransport(rpcUrl, 10_000);
    const nodeHttp = nodeHttpClient(rpcUrl);
    const candidates: Array<[string, () => Promise<unknown>]> = [
      ['undici Pool.request (json-rpc-http.ts)', () => lean.send('eth_call', [tx, 'latest'])],
      ['node:http client + keep-alive agent', () => nodeHttp('eth_call', [tx, 'latest'])],
      [
        'ethers JsonRpcProvider + keep-alive agent',
        () => provider.send('eth_call', [tx, 'latest']),
      ],
      ['fetch client (undici keep-alive)', () => client('eth_call', [tx, 'latest'])],
    ];
    for (const concurrency of [1, 8])
      for (let round = 0; round < 2; round += 1)
        for (const [label, call] of candidates) await measure(label, n, call, concurrency);
    provider.destroy();
    lean.destroy();
  } finally {
    await proxy.stop();
    await devnet.stop();
  }
}

void main();
