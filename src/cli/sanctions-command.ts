/**
 * `npm run cli -- sanctions add|remove|list [ADDRESS] [--rpc URL] [--network-file F]`: manages the
 * devnet's SanctionsOracle (contracts/src/SanctionsOracle.sol), the stand-in for Chainalysis'
 * oracle that the embedded devnet and `npm run devnet -- --bare` deploy. Runs without the app: the
 * oracle is the network file's `compliance.sanctionsOracle` (default: CHAIN_NETWORK_FILE, else the
 * shipped devnet file), the RPC is --rpc, else CHAIN_RPC_URL, else the embedded devnet on
 * DEVNET_PORT (8545). Writes are signed by the oracle's owner: ATTESTER_PRIVATE_KEY when set, else
 * devnet account 0 (the devnet deployer, who owns the devnet oracle). A real network's oracle
 * (Chainalysis') is not ours to write: add/remove then fail with NotOwner.
 */
import { resolve } from 'node:path';
import { Contract, getAddress, isAddress, JsonRpcProvider, Wallet } from 'ethers';
import { SANCTIONS_LIST } from '../chain/abi/sanctions-list';
import { devnetPrivateKeys } from '../chain/devnet/devnet';
import { readNetworkFile, readNetworkFileAt } from '../chain/network/network-loader';
import { resolveComplianceSettings } from '../chain/network/network-definition';
import { CliUsageError } from './cli-usage';

export const SANCTIONS_VERBS = ['add', 'remove', 'list'] as const;
type Verb = (typeof SANCTIONS_VERBS)[number];

interface SanctionsArgs {
  verb: Verb;
  address?: string;
  rpc: string;
  networkFile?: string;
}

export function parseSanctionsArgs(
  verb: Verb,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): SanctionsArgs {
  let address: string | undefined;
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if ((arg === '--rpc' || arg === '--network-file') && args[i + 1]) {
      flags[arg.slice(2)] = args[(i += 1)];
    } else if (!arg.startsWith('--') && address === undefined) {
      if (!isAddress(arg)) throw new CliUsageError(`${arg} is not an address`);
      address = getAddress(arg);
    } else throw new CliUsageError(`Unexpected argument: ${arg}`);
  }
  if (verb !== 'list' && !address) throw new CliUsageError(`sanctions ${verb} needs an ADDRESS`);
  const rpc =
    flags.rpc ??
    env.CHAIN_RPC_URL?.split(',')[0]?.trim() ??
    `http://127.0.0.1:${env.DEVNET_PORT || 8545}`;
  const networkFile = flags['network-file'] ?? env.CHAIN_NETWORK_FILE;
  return { verb, address, rpc, networkFile: networkFile && resolve(networkFile) };
}

function ownerKey(env: NodeJS.ProcessEnv): string {
  const key = env.ATTESTER_PRIVATE_KEY?.trim();
  if (!key) return devnetPrivateKeys(1)[0];
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new CliUsageError('ATTESTER_PRIVATE_KEY must be 0x followed by 64 hex characters');
  return key;
}

export async function sanctionsCommand(
  verb: Verb,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ exitCode: number; output: string }> {
  const parsed = parseSanctionsArgs(verb, args, env);
  const file = parsed.networkFile
    ? readNetworkFileAt(parsed.networkFile)
    : readNetworkFile('devnet');
  const { sanctionsOracle } = resolveComplianceSettings(file.compliance);
  if (!sanctionsOracle)
    throw new Error(
      `The network file ${parsed.networkFile ?? 'devnet'} names no compliance.sanctionsOracle`,
    );
  const provider = new JsonRpcProvider(parsed.rpc, file.chainId, { staticNetwork: true });
  try {
    const oracle = new Contract(
      sanctionsOracle,
      SANCTIONS_LIST,
      new Wallet(ownerKey(env), provider),
    );
    let txHash: string | undefined;
    if (parsed.verb !== 'list') {
      const send =
        parsed.verb === 'add' ? oracle.addToSanctionsList : oracle.removeFromSanctionsList;
      const tx = await send([parsed.address]);
      txHash = (await tx.wait())!.hash;
    }
    const sanctioned = ((await oracle.sanctionedAddresses()) as string[]).map((a) => getAddress(a));
    const result =
      parsed.verb === 'list'
        ? { oracle: sanctionsOracle, sanctioned }
        : {
            oracle: sanctionsOracle,
            wallet: parsed.address,
            sanctioned: sanctioned.includes(parsed.address!),
            txHash,
          };
    return { exitCode: 0, output: `${JSON.stringify(result)}\n` };
  } finally {
    provider.destroy();
  }
}
