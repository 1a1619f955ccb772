/**
 * `npm run cli -- sanctions add|remove|list [ADDRESS] [--rpc URL] [--network-file F]
 * [--owner-key-file K]`: manages the
 * devnet's SanctionsOracle (contracts/src/SanctionsOracle.sol), the stand-in for Chainalysis'
 * oracle that the embedded devnet and `npm run devnet -- --bare` deploy. Runs without the app: the
 * oracle is the network file's `compliance.sanctionsOracle` (default: CHAIN_NETWORK_FILE, else the
 * shipped devnet file), the RPC is --rpc, else CHAIN_RPC_URL, else the running service's embedded
 * devnet (DATA_DIR/devnet.json), else DEVNET_PORT (8545); stderr says which (service-chain.ts).
 * Writes are signed by the oracle's owner: the key in --owner-key-file, else devnet account 0 (the
 * devnet deployer, who owns the devnets' oracle); never the attester's key (it does not own the
 * oracle, and may be in an HSM). A key that is not the owner's is refused by the oracle with
 * NotOwner: said plainly, with the owner's address. A real network's oracle (Chainalysis') is not
 * ours to write.
 */
import { resolve } from 'node:path';
import { Contract, getAddress, isAddress, JsonRpcProvider, Wallet } from 'ethers';
import { SANCTIONS_LIST } from '../chain/abi/sanctions-list';
import { devnetPrivateKeys } from '../chain/devnet/devnet';
import { readNetworkFile, readNetworkFileAt } from '../chain/network/network-loader';
import { resolveComplianceSettings } from '../chain/network/network-definition';
import { revertDataOf } from '../chain/encoding/revert-decoder';
import { CliUsageError } from './cli-usage';
import { readDeployerKey } from './deploy-command';
import { serviceChain, serviceChainNotice } from './service-chain';
import type { StandaloneResult } from './standalone-commands';
import type { OperatorAuditWriter } from './standalone-database';

export const SANCTIONS_VERBS = ['add', 'remove', 'list'] as const;
type Verb = (typeof SANCTIONS_VERBS)[number];

interface SanctionsArgs {
  verb: Verb;
  address?: string;
  rpc: string;
  /** Why this RPC URL (--rpc, CHAIN_RPC_URL, the running service's devnet, DEVNET_PORT). */
  rpcSource: string;
  networkFile?: string;
  /** The oracle owner's key file (add, remove); unset: devnet account 0, the devnets' owner. */
  ownerKeyFile?: string;
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
    if (
      (arg === '--rpc' || arg === '--network-file' || arg === '--owner-key-file') &&
      args[i + 1]
    ) {
      flags[arg.slice(2)] = args[(i += 1)];
    } else if (!arg.startsWith('--') && address === undefined) {
      if (!isAddress(arg)) throw new CliUsageError(`${arg} is not an address`);
      address = getAddress(arg);
    } else throw new CliUsageError(`Unexpected argument: ${arg}`);
  }
  if (verb !== 'list' && !address) throw new CliUsageError(`sanctions ${verb} needs an ADDRESS`);
  const chain = serviceChain(env, flags.rpc);
  const networkFile = flags['network-file'] ?? env.CHAIN_NETWORK_FILE;
  return {
    verb,
    address,
    rpc: chain.rpcUrl,
    rpcSource: chain.source,
    networkFile: networkFile && resolve(networkFile),
    ownerKeyFile: flags['owner-key-file'] && resolve(flags['owner-key-file']),
  };
}

/** The oracle owner's key: --owner-key-file's, else devnet account 0 (who deploys the devnets' oracle). */
function ownerWallet(parsed: SanctionsArgs): { wallet: Wallet; warnings: string[] } {
  if (parsed.ownerKeyFile) return readDeployerKey(parsed.ownerKeyFile, 'oracle owner');
  return { wallet: new Wallet(devnetPrivateKeys(1)[0]), warnings: [] };
}

/**
 * A write the oracle refused, said plainly: NotOwner(caller) names the key that signed; the
 * owner is read from the oracle. Anything else goes as it came.
 */
async function refusal(error: unknown, oracle: Contract, signer: string): Promise<never> {
  const data = revertDataOf(error);
  let parsed;
  try {
    parsed = data ? SANCTIONS_LIST.parseError(data) : null;
  } catch {
    parsed = null;
  }
  if (parsed?.name !== 'NotOwner') throw error;
  const owner = (await oracle.owner().catch(() => 'unknown')) as string;
  throw new CliUsageError(
    `the oracle ${await oracle.getAddress()} refused the write: NotOwner(${signer}). It is owned by ${owner}: pass that owner's key with --owner-key-file FILE. A network's own oracle (Chainalysis' on Base) is not ours to write.`,
  );
}

/**
 * Runs the command; `audit` records an add or remove in the operator audit (`sanctions.listed`,
 * `sanctions.unlisted`: the standalone CLI writes them to the service's database).
 */
export async function sanctionsCommand(
  verb: Verb,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  audit?: OperatorAuditWriter,
): Promise<StandaloneResult & { notice: string }> {
  const parsed = parseSanctionsArgs(verb, args, env);
  const file = parsed.networkFile
    ? readNetworkFileAt(parsed.networkFile)
    : readNetworkFile('devnet');
  const { sanctionsOracle } = resolveComplianceSettings(file.compliance);
  if (!sanctionsOracle)
    throw new Error(
      `The network file ${parsed.networkFile ?? 'devnet'} names no compliance.sanctionsOracle`,
    );
  const notice = serviceChainNotice({ rpcUrl: parsed.rpc, source: parsed.rpcSource });
  const provider = new JsonRpcProvider(parsed.rpc, file.chainId, { staticNetwork: true });
  try {
    const owner = parsed.verb === 'list' ? undefined : ownerWallet(parsed);
    const oracle = new Contract(
      sanctionsOracle,
      SANCTIONS_LIST,
      owner ? owner.wallet.connect(provider) : provider,
    );
    let txHash: string | undefined;
    if (parsed.verb !== 'list') {
      const send =
        parsed.verb === 'add' ? oracle.addToSanctionsList : oracle.removeFromSanctionsList;
      try {
        const tx = await send([parsed.address]);
        txHash = (await tx.wait())!.hash;
      } catch (error) {
        await refusal(error, oracle, owner!.wallet.address);
      }
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
    const warning =
      parsed.verb === 'list'
        ? undefined
        : await audit?.({
            type: parsed.verb === 'add' ? 'sanctions.listed' : 'sanctions.unlisted',
            target: { type: 'wallet', id: parsed.address! },
            data: { oracle: sanctionsOracle, txHash, chainId: file.chainId },
          });
    const warnings = [...(owner?.warnings ?? []), ...(warning ? [warning] : [])];
    return {
      exitCode: 0,
      output: `${JSON.stringify(result)}\n`,
      notice,
      ...(warnings.length > 0 && { warnings }),
    };
  } catch (err) {
    // The oracle refused the owner's key: said as it is (a usage error, not the chain's).
    if (err instanceof CliUsageError) throw err;
    // A chain that does not answer: say which one was asked, and why that one.
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${notice.trimEnd()}`);
  } finally {
    provider.destroy();
  }
}
