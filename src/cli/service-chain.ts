/**
 * The chain of the service this CLI belongs to (issue 53 item 5): the CLI reads the settings the
 * service reads (its environment: neither reads a .env file) and, for the embedded devnet, the
 * port the running service's devnet listens on, recorded in DATA_DIR/devnet.json. In order:
 * --rpc, CHAIN_RPC_URL (its first URL), the running service's devnet in DATA_DIR (./data by
 * default), else DEVNET_PORT (8545), the embedded devnet's default. Every command that talks to
 * the chain says on stderr which RPC URL it used and why (stdout stays the command's JSON).
 */
import { resolve } from 'node:path';
import { devnetEndpointPath, readDevnetEndpoint } from '../chain/devnet/devnet-endpoint';
import { redactUrl } from '../chain/chain-connection';

export interface ServiceChain {
  rpcUrl: string;
  /** Why this URL: which setting, file or default named it. */
  source: string;
}

export function serviceChain(env: NodeJS.ProcessEnv, rpcFlag?: string): ServiceChain {
  if (rpcFlag) return { rpcUrl: rpcFlag, source: '--rpc' };
  const configured = env.CHAIN_RPC_URL?.split(',')[0]?.trim();
  if (configured) return { rpcUrl: configured, source: 'CHAIN_RPC_URL' };
  const dataDir = resolve(env.DATA_DIR || './data');
  const running = readDevnetEndpoint(dataDir);
  if (running)
    return {
      rpcUrl: running.rpcUrl,
      source: `the embedded devnet of the service running as pid ${running.pid} (${devnetEndpointPath(dataDir)})`,
    };
  const port = env.DEVNET_PORT || '8545';
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    source: `${env.DEVNET_PORT ? 'DEVNET_PORT' : 'the embedded devnet default port'}: no running service recorded its devnet in ${devnetEndpointPath(dataDir)}`,
  };
}

/** The commands of the app context that send to the chain (the attester, the test attester). */
export const CHAIN_COMMANDS: ReadonlySet<string> = new Set([
  'attest',
  'attest revoke',
  'revoke-session',
  'credentials revoke',
  'issuers revoke',
]);

/** The line a command prints on stderr: the RPC URL it uses (scheme://host[:port]) and why. */
export function serviceChainNotice(chain: ServiceChain): string {
  return `chain: ${redactUrl(chain.rpcUrl)} (${chain.source})\n`;
}
