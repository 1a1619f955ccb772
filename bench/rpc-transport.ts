/**
 * `npx ts-node --swc bench/rpc-transport.ts [N]`: CPU and wall time per JSON-RPC call of the two
 * candidate transports to the node, against a devnet in its own process: ethers' JsonRpcProvider
 * over a keep-alive http.Agent (FetchRequest.createGetUrlFunc) and a lean JSON-RPC client over Node's fetch (the
 * removed src/chain/json-rpc-client.ts, inlined here).
 * The call is the wallet-read batch every build sends (one Multicall3 aggregate3 eth_call).
 */
import { Agent } from 'node:http';
import { FetchRequest, JsonRpcProvider } from 'ethers';
import { spawnDevnet } from '../src/chain/devnet/devnet-process';
import { encodeAggregate3 } from '../src/chain/encoding/multicall';
import { createJsonRpcTransport } from '../src/chain/json-rpc-http';
import { walletReadCalls } from '../src/chain/encoding/wallet-reads';
import { devnetNetworkDefinition } from '../src/chain/network/network-definition';

async function measure(label: string, n: number, call: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 200; i += 1) await call(); // warm-up: connections, JIT
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i += 1) await call();
  const wallUs = Number(process.hrtime.bigint() - started) / 1e3 / n;
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / n;
  process.stdout.write(
    `${label.padEnd(44)} cpu ${cpuUs.toFixed(0).padStart(5)} us/call   wall ${wallUs.toFixed(0).padStart(5)} us/call\n`,
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

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 3000);
  const devnet = await spawnDevnet({ port: 0 });
  try {
    const network = devnetNetworkDefinition(devnet.deployment);
    const tx = {
      to: network.contracts.multicall3,
      data: encodeAggregate3(walletReadCalls(network, devnet.deployment.accounts.funded[1])),
    };
    const request = new FetchRequest(devnet.rpcUrl);
    request.getUrlFunc = FetchRequest.createGetUrlFunc({
      agent: new Agent({ keepAlive: true, maxSockets: 16 }),
    });
    const provider = new JsonRpcProvider(request, network.chainId, {
      staticNetwork: true,
      batchMaxCount: 1,
      cacheTimeout: -1,
    });
    const client = fetchClient(devnet.rpcUrl);
    const lean = createJsonRpcTransport(devnet.rpcUrl, 10_000);
    for (let round = 0; round < 2; round += 1) {
      await measure('node:http JSON-RPC client + keep-alive agent', n, () =>
        lean.send('eth_call', [tx, 'latest']),
      );
      await measure('ethers JsonRpcProvider + keep-alive agent', n, () =>
        provider.send('eth_call', [tx, 'latest']),
      );
      await measure('fetch JSON-RPC client (undici keep-alive)', n, () =>
        client('eth_call', [tx, 'latest']),
      );
    }
    provider.destroy();
    lean.destroy();
  } finally {
    await devnet.stop();
  }
}

void main();
