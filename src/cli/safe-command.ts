/**
 * `npm run cli -- safe create --owners A,B,C --threshold 2 [--salt-nonce N] [--rpc URL]
 * [--from-key-file K] [--json]`: creates a Safe v1.4.1 (SafeL2 singleton, CompatibilityFallbackHandler)
 * through the canonical SafeProxyFactory and prints its address (`--json`: `{ address, ... }`).
 *
 * Runs without the app (no database, no configuration). The RPC is --rpc, else CHAIN_RPC_URL,
 * else the running service's embedded devnet, else DEVNET_PORT (8545) (service-chain.ts; stderr
 * says which); the creation is paid by the key in K, else by
 * devnet account 0. The address depends only on the owners, threshold and salt nonce (default:
 * protocol-kit's for the chain), so the same command prints the same Safe: one already created
 * is answered as is (`created: false`).
 */
import { Contract, getAddress, isAddress, JsonRpcProvider, Wallet } from 'ethers';
import { resolve } from 'node:path';
import { SAFE, SAFE_PROXY_FACTORY } from '../chain/abi/safe';
import { devnetPrivateKeys } from '../chain/devnet/devnet';
import { safeContractsFor, safeProxyCode } from '../chain/safe/safe-contracts';
import {
  checkSafeConfig,
  createSafeCalldata,
  defaultSaltNonce,
  predictSafeAddress,
} from '../chain/safe/safe-creation';
import { redactUrl } from '../chain/chain-connection';
import { CliUsageError, parseFlags } from './cli-usage';
import { readDeployerKey } from './deploy-command';
import { serviceChain, serviceChainNotice } from './service-chain';

const MINED_TIMEOUT_MS = 120_000;
const SAFE_CREATE_FLAGS = ['owners', 'threshold', 'salt-nonce', 'rpc', 'from-key-file'];

interface SafeCreateArgs {
  owners: string[];
  threshold: number;
  saltNonce?: bigint;
  rpc: string;
  /** Why this RPC URL (service-chain.ts). */
  rpcSource: string;
  fromKeyFile?: string;
  json: boolean;
}

export function parseSafeCreateArgs(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): SafeCreateArgs {
  const json = args.includes('--json');
  const values = parseFlags(args.filter((arg) => arg !== '--json'));
  const unknown = Object.keys(values).find((name) => !SAFE_CREATE_FLAGS.includes(name));
  if (unknown !== undefined) throw new CliUsageError(`Unexpected argument: --${unknown}`);
  if (!values.owners) throw new CliUsageError('--owners is required (comma-separated addresses)');
  const owners = values.owners.split(',').map((owner) => owner.trim());
  const bad = owners.find((owner) => !isAddress(owner));
  if (bad !== undefined) throw new CliUsageError(`--owners: ${bad || '(empty)'} is not an address`);
  if (!values.threshold || !/^\d{1,3}$/.test(values.threshold))
    throw new CliUsageError('--threshold is required: how many owners must sign (e.g. 2)');
  const threshold = Number(values.threshold);
  try {
    checkSafeConfig(owners, threshold);
  } catch (err) {
    throw new CliUsageError(`--owners / --threshold: ${(err as Error).message}`);
  }
  if (values['salt-nonce'] !== undefined && !/^\d{1,78}$/.test(values['salt-nonce']))
    throw new CliUsageError('--salt-nonce must be a whole number');
  const saltNonce = values['salt-nonce'] === undefined ? undefined : BigInt(values['salt-nonce']);
  if (saltNonce !== undefined && saltNonce >= 2n ** 256n)
    throw new CliUsageError('--salt-nonce must be below 2^256');
  const { rpcUrl: rpc, source: rpcSource } = serviceChain(env, values.rpc);
  if (!/^https?:\/\//.test(rpc)) throw new CliUsageError('--rpc must be an http(s) URL');
  return {
    owners: owners.map((owner) => getAddress(owner)),
    threshold,
    saltNonce,
    rpc,
    rpcSource,
    fromKeyFile: values['from-key-file'] && resolve(values['from-key-file']),
    json,
  };
}

export async function safeCreateCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ exitCode: number; output: string; notice: string }> {
  const options = parseSafeCreateArgs(args, env);
  const notice = serviceChainNotice({ rpcUrl: options.rpc, source: options.rpcSource });
  const { wallet, warnings } = options.fromKeyFile
    ? readDeployerKey(options.fromKeyFile, 'paying')
    : { wallet: new Wallet(devnetPrivateKeys(1)[0]), warnings: [] };
  const provider = new JsonRpcProvider(options.rpc, undefined, { staticNetwork: true });
  try {
    const chainId = Number((await provider.getNetwork()).chainId);
    const contracts = safeContractsFor(chainId);
    if (!contracts || (await provider.getCode(contracts.proxyFactory)) === '0x')
      throw new Error(
        `Safe ${contracts?.version ?? '1.4.1'} is not deployed on chain ${chainId} at ${redactUrl(options.rpc)} (the devnets place it; Base and Base Sepolia have it)`,
      );
    const config = {
      owners: options.owners,
      threshold: options.threshold,
      saltNonce: options.saltNonce ?? defaultSaltNonce(chainId),
    };
    const address = predictSafeAddress(contracts, safeProxyCode().creationCode, config);
    let txHash: string | null = null;
    const created = (await provider.getCode(address)) === '0x';
    if (created) {
      const tx = await wallet.connect(provider).sendTransaction({
        to: contracts.proxyFactory,
        data: createSafeCalldata(contracts, config),
      });
      const receipt = await tx.wait(1, MINED_TIMEOUT_MS);
      if (!receipt || receipt.status !== 1) throw new Error(`the creation ${tx.hash} failed`);
      const event = receipt.logs
        .map((log) => SAFE_PROXY_FACTORY.parseLog(log))
        .find((parsed) => parsed?.name === 'ProxyCreation');
      if (!event || getAddress(event.args.proxy as string) !== address)
        throw new Error(`the factory created ${event?.args.proxy ?? 'nothing'}, not ${address}`);
      txHash = tx.hash;
    }
    const safe = new Contract(address, SAFE, provider);
    const [owners, threshold] = (await Promise.all([safe.getOwners(), safe.getThreshold()])) as [
      string[],
      bigint,
    ];
    const result = {
      address,
      owners: owners.map((owner) => getAddress(owner)),
      threshold: Number(threshold),
      saltNonce: config.saltNonce.toString(),
      chainId,
      created,
      txHash,
    };
    if (options.json) return { exitCode: 0, output: `${JSON.stringify(result)}\n`, notice };
    return {
      exitCode: 0,
      notice,
      output:
        warnings.map((w) => `WARNING: ${w}\n`).join('') +
        `Safe ${address} (${result.threshold} of ${result.owners.length}: ${result.owners.join(', ')}) ` +
        `${created ? `created in ${txHash}` : 'already exists'} on chain ${chainId}\n`,
    };
  } finally {
    provider.destroy();
  }
}
