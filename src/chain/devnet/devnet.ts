/**
 * The embedded devnet: Hardhat 2.29's in-process EDR engine (chainId 84532, Cancun), the
 * deployment of devnet-deployer.ts (the public infrastructure, then ours through the same executor
 * `npm run cli -- deploy` runs; only the infrastructure for a bare devnet), and a JSON-RPC HTTP
 * server on 127.0.0.1. Hardhat 2 is used
 * (not 3) because Hardhat 3's EDR native package needs Node >= 22.
 *
 * The server counts the JSON-RPC calls it serves per method, so tests can assert that a
 * read took exactly one eth_call; `devnet_rpcStats` / `devnet_resetRpcStats` expose the counters
 * and are not counted themselves.
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { HDNodeWallet, Mnemonic } from 'ethers';
import * as C from './constants';
import {
  deployDevnet,
  deployInfrastructure,
  DevnetInfrastructure,
  Eip1193,
  infrastructureNetworkFile,
} from './devnet-deployer';
import type { NetworkFile } from '../network/network-definition';
import type { DevnetDeployment } from '../network/network.types';

export interface DevnetOptions {
  /** 0 = ephemeral port. */
  port?: number;
  host?: string;
}

interface ServedDevnet {
  rpcUrl: string;
  /** In-process EIP-1193 access (no HTTP), e.g. for snapshot/revert from the owning process. */
  provider: Eip1193;
  timings: { engineMs: number; deployMs: number };
  close(): Promise<void>;
}

export interface RunningDevnet extends ServedDevnet {
  deployment: DevnetDeployment;
}

/** Only the public infrastructure: the stand-in for Base Sepolia before `deploy` ran. */
export interface RunningBareDevnet extends ServedDevnet {
  infrastructure: DevnetInfrastructure;
  /** The network file of this devnet: infrastructure addresses, our contracts and token null. */
  networkFile: NetworkFile;
}

export function devnetPrivateKeys(count = C.DEVNET_ACCOUNT_COUNT): string[] {
  const mnemonic = Mnemonic.fromPhrase(C.DEVNET_MNEMONIC);
  return Array.from(
    { length: count },
    (_, i) => HDNodeWallet.fromMnemonic(mnemonic, `m/44'/60'/0'/0/${i}`).privateKey,
  );
}

async function createEngine(privateKeys: string[]): Promise<Eip1193> {
  // Internal module, loaded lazily: requiring `hardhat` itself would need a hardhat.config.
  type Factory = {
    createHardhatNetworkProvider: (config: object, logger: object) => Promise<Eip1193>;
  };
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { createHardhatNetworkProvider } =
    require('hardhat/internal/hardhat-network/provider/provider') as Factory;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return createHardhatNetworkProvider(
    {
      hardfork: C.DEVNET_HARDFORK,
      chainId: C.DEVNET_CHAIN_ID,
      networkId: C.DEVNET_CHAIN_ID,
      blockGasLimit: 60_000_000,
      minGasPrice: 0n,
      automine: true,
      intervalMining: 0,
      mempoolOrder: 'priority',
      chains: new Map(),
      genesisAccounts: privateKeys.map((privateKey) => ({
        privateKey,
        balance: C.GENESIS_BALANCE_WEI.toString(),
      })),
      allowUnlimitedContractSize: false,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
      // Automine mines one block per transaction; with strictly increasing timestamps a burst of
      // transactions (the deployment alone is ~45) pushes chain time ahead of wall-clock time,
      // and sessions (activeUntil vs block.timestamp) would drift from the API's clock.
      allowBlocksWithSameTimestamp: true,
      enableTransientStorage: true,
      enableRip7212: false,
    },
    { enabled: false },
  );
}

/** Wraps the engine to count served calls per method. */
class CountingProvider implements Eip1193 {
  private counts = new Map<string, number>();

  constructor(private readonly inner: Eip1193) {}

  async request(args: { method: string; params?: unknown[] }): Promise<unknown> {
    if (args.method === 'devnet_rpcStats') return Object.fromEntries(this.counts);
    if (args.method === 'devnet_resetRpcStats') {
      this.counts.clear();
      return true;
    }
    this.counts.set(args.method, (this.counts.get(args.method) ?? 0) + 1);
    return this.inner.request(args);
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

export function startDevnet(options: DevnetOptions = {}): Promise<RunningDevnet> {
  return serve(options, async (engine, accounts, keys) => ({
    deployment: await deployDevnet(engine, accounts, keys),
  }));
}

export function startBareDevnet(options: DevnetOptions = {}): Promise<RunningBareDevnet> {
  return serve(options, async (engine, accounts) => {
    const infrastructure = await deployInfrastructure(engine, accounts);
    return { infrastructure, networkFile: infrastructureNetworkFile(infrastructure) };
  });
}

async function serve<T>(
  options: DevnetOptions,
  deploy: (engine: Eip1193, accounts: string[], privateKeys: string[]) => Promise<T>,
): Promise<ServedDevnet & T> {
  const host = options.host ?? '127.0.0.1';
  const started = Date.now();
  const keys = devnetPrivateKeys();
  const engine = await createEngine(keys);
  const engineMs = Date.now() - started;
  const accounts = (await engine.request({ method: 'eth_accounts' })) as string[];
  const deployed = await deploy(engine, accounts, keys);
  const deployMs = Date.now() - started - engineMs;

  const counting = new CountingProvider(engine);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { JsonRpcHandler } = require('hardhat/internal/hardhat-network/jsonrpc/handler') as {
    JsonRpcHandler: new (provider: Eip1193) => {
      handleHttp: (req: unknown, res: unknown) => Promise<void>;
    };
  };
  const handler = new JsonRpcHandler(counting);
  const server = createServer((req, res) => void handler.handleHttp(req, res));
  // Keep-alive sockets would hold close() open; RPC calls are short, so close idle ones quickly.
  server.keepAliveTimeout = 1_000;
  const port = await listen(server, options.port ?? 8545, host);

  return {
    ...deployed,
    rpcUrl: `http://${host}:${port}`,
    provider: engine,
    timings: { engineMs, deployMs },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
