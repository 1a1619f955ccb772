/**
 * The one connection to the chain: the RPC transport (json-rpc-http.ts, one per configured URL,
 * behind the failover of rpc-failover.ts) that every read of ChainRpcService uses, the ethers v6
 * provider (the attester's transactions: signing, nonces, receipts) sending through that same
 * failover, the resolved network, and (when no CHAIN_RPC_URL is configured) the embedded devnet
 * child process it owns and stops on shutdown.
 *
 * Transport chosen by measurement (bench/rpc-transport.ts, wallet-read eth_calls against the
 * devnet behind the bench's caching proxy; figures in bench/README.md "RPC transport"): undici's
 * Pool.request costs the least CPU per call, then node:http with a keep-alive agent, then ethers'
 * JsonRpcProvider over that agent (~5x undici), then Node's fetch. ethers keeps building and
 * reading the attester's calls; their HTTP leg is the same undici pool.
 */
import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { JsonRpcProvider } from 'ethers';
import type { ChainConfig } from '../config/chain.config';
import { FailoverJsonRpcProvider } from './failover-provider';
import { RpcFailover, RpcFailoverStatus } from './rpc-failover';
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

/** The RPC URLs of a config, in order; CLI callers may set only `rpcUrl`. */
function configuredRpcUrls(config: ChainConfig): string[] {
  if (config.rpcUrls?.length) return [...config.rpcUrls];
  return config.rpcUrl ? [config.rpcUrl] : [];
}

export class ChainConnection implements OnApplicationShutdown {
  private static readonly logger = new Logger('Chain');

  /**
   * Every call to the chain: the reads (ChainRpcService), one JSON-RPC call per keep-alive HTTP
   * request, over the configured RPC URLs with failover (rpc-failover.ts).
   */
  readonly reads: RpcFailover;
  /** The attester's provider: ethers over the same failover transport. */
  readonly provider: JsonRpcProvider;
  /** The first (primary) RPC URL, credentials included: never log or return it (redactUrl). */
  readonly rpcUrl: string;

  private constructor(
    rpcUrls: string[],
    readonly network: NetworkDefinition,
    config: Pick<ChainConfig, 'timeoutMs' | 'rpcBackoffMs' | 'rpcBackoffMaxMs'>,
    /** Set when this process started the embedded devnet. */
    readonly devnet?: DevnetProcess,
    /** Set when this connection owns (and restarts) its devnet; a shared test devnet is not. */
    private readonly supervisor?: SupervisedDevnet,
    /** Set when the network came from a file (CHAIN_RPC_URL given): what the start check verifies. */
    readonly networkFile?: NetworkFileSource,
  ) {
    this.rpcUrl = rpcUrls[0];
    this.reads = new RpcFailover(rpcUrls, {
      timeoutMs: config.timeoutMs,
      backoffMs: config.rpcBackoffMs,
      backoffMaxMs: config.rpcBackoffMaxMs,
    });
    this.provider = new FailoverJsonRpcProvider(this.reads, network.chainId);
  }

  /** The RPC URL in use and each URL's recent error rate (redacted to scheme://host[:port]). */
  rpcStatus(): RpcFailoverStatus {
    return this.reads.status();
  }

  static async open(config: ChainConfig): Promise<ChainConnection> {
    const rpcUrls = configuredRpcUrls(config);
    if (rpcUrls.length > 0) {
      const {
        definition: network,
        file,
        source,
      } = config.networkFile
        ? loadNetworkFileAt(config.networkFile, config.overrides)
        : loadNetwork(config.network, config.overrides);
      ChainConnection.logger.log(
        `chain ${network.name} (chainId ${network.chainId}, network file ${source}) via ${rpcUrls.map(redactUrl).join(', ')}`,
      );
      return new ChainConnection(rpcUrls, network, config, undefined, undefined, { file, source });
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
    return new ChainConnection([devnet.rpcUrl], network, config, devnet, supervisor);
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
