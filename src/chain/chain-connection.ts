/**
 * The one connection to the chain: the read transport (json-rpc-http.ts: every read of
 * ChainRpcService), the ethers v6 provider (the attester's transactions: signing, nonces,
 * receipts), the resolved network, and (when no CHAIN_RPC_URL is configured) the embedded devnet
 * child process it owns and stops on shutdown. Both keep their connections alive.
 *
 * Transports chosen by measurement (bench/rpc-transport.ts, wallet-read eth_calls against the
 * devnet behind the bench's caching proxy; figures in bench/README.md "RPC transport"): undici's
 * Pool.request costs the least CPU per call, then node:http with a keep-alive agent, then ethers'
 * JsonRpcProvider over that agent (~5x undici), then Node's fetch. Without an agent, ethers
 * opens a TCP connection per call.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { FetchRequest, JsonRpcProvider } from 'ethers';
import { createJsonRpcTransport, JsonRpcTransport } from './json-rpc-http';
import type { ChainConfig } from '../config/chain.config';
import { DevnetProcess, sharedDevnet } from './devnet/devnet-process';
import { superviseDevnet, SupervisedDevnet } from './devnet/devnet-supervisor';
import { devnetNetworkDefinition, NetworkFile } from './network/network-definition';
import { loadNetwork, loadNetworkFileAt } from './network/network-loader';
import type { NetworkDefinition } from './network/network.types';

/** The network file a connection read (absent on the embedded devnet: its deployment is the truth). */
export interface NetworkFileSource {
  file: NetworkFile;
  /** Its path, or the shipped file's name: for messages. */
  source: string;
}

export function createChainProvider(
  rpcUrl: string,
  chainId: number,
  timeoutMs: number,
): JsonRpcProvider {
  const request = new FetchRequest(rpcUrl);
  request.timeout = timeoutMs;
  const agentOptions = { keepAlive: true, maxSockets: 64 };
  request.getUrlFunc = FetchRequest.createGetUrlFunc({
    agent: rpcUrl.startsWith('https:') ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions),
  });
  return new JsonRpcProvider(request, chainId, {
    // No eth_chainId probe before calls: a read costs exactly the requests we make, and a dead
    // RPC cannot trap the provider in ethers' endless network-detection retry loop.
    staticNetwork: true,
    // One JSON-RPC call per HTTP request, sent at once (no 10 ms batching stall).
    batchMaxCount: 1,
    // Preflight reads just before and after an approval must both reach the chain.
    cacheTimeout: -1,
    pollingInterval: 1_000,
  });
}

export class ChainConnection implements OnApplicationShutdown {
  private static readonly logger = new Logger('Chain');

  /** Every read (ChainRpcService): one JSON-RPC call per keep-alive HTTP request. */
  readonly reads: JsonRpcTransport;

  private constructor(
    readonly rpcUrl: string,
    readonly network: NetworkDefinition,
    readonly provider: JsonRpcProvider,
    timeoutMs: number,
    /** Set when this process started the embedded devnet. */
    readonly devnet?: DevnetProcess,
    /** Set when this connection owns (and restarts) its devnet; a shared test devnet is not. */
    private readonly supervisor?: SupervisedDevnet,
    /** Set when the network came from a file (CHAIN_RPC_URL given): what the start check verifies. */
    readonly networkFile?: NetworkFileSource,
  ) {
    this.reads = createJsonRpcTransport(rpcUrl, timeoutMs);
  }

  static async open(config: ChainConfig): Promise<ChainConnection> {
    if (config.rpcUrl) {
      const {
        definition: network,
        file,
        source,
      } = config.networkFile
        ? loadNetworkFileAt(config.networkFile, config.overrides)
        : loadNetwork(config.network, config.overrides);
      ChainConnection.logger.log(
        `chain ${network.name} (chainId ${network.chainId}, network file ${source}) via ${redactUrl(config.rpcUrl)}`,
      );
      return new ChainConnection(
        config.rpcUrl,
        network,
        createChainProvider(config.rpcUrl, network.chainId, config.timeoutMs),
        config.timeoutMs,
        undefined,
        undefined,
        { file, source },
      );
    }
    const options = { port: config.devnetPort, readyTimeoutMs: config.devnetStartTimeoutMs };
    const supervisor = config.devnetShared ? undefined : await superviseDevnet(options);
    const devnet = supervisor ? supervisor.current : await sharedDevnet(options);
    const { positionLogsStartBlock, positionLogsPageBlocks } = config.overrides;
    const network = devnetNetworkDefinition(devnet.deployment, {
      positionLogsStartBlock,
      positionLogsPageBlocks,
    });
    ChainConnection.logger.log(
      `embedded devnet ready at ${devnet.rpcUrl} in ${devnet.startupMs} ms (pid ${devnet.pid}, deployment ${devnet.timings.deployMs} ms)`,
    );
    return new ChainConnection(
      devnet.rpcUrl,
      network,
      createChainProvider(devnet.rpcUrl, network.chainId, config.timeoutMs),
      config.timeoutMs,
      devnet,
      supervisor,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.provider.destroy();
    this.reads.destroy();
    if (this.supervisor) await this.supervisor.stop();
    else if (this.devnet) await this.devnet.stop();
  }
}

/** RPC URLs often embed API keys (e.g. https://base-sepolia.g.alchemy.com/v2/<key>). */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.length > 1 ? '/…' : ''}`;
}
