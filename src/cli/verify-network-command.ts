/**
 * `npm run cli -- verify-network --rpc URL --network-file F [--json]`: does the network file F
 * describe the chain behind URL (src/chain/network/verify-network.ts)? Runs without the app (no
 * database, no configuration): three JSON-RPC requests. With ATTESTER_PRIVATE_KEY in the
 * environment, its address must also be an attester of the registry, and a balance below
 * ATTESTER_LOW_BALANCE_ETH (0.01) is warned about (exit code unchanged).
 *
 * Exit 0 with a short OK report; exit 1 with one line per mismatch, each starting with the field
 * path (`contracts.complianceHook: ...`); `--json` prints the checks as JSON either way.
 */
import { resolve } from 'node:path';
import { formatEther, Wallet } from 'ethers';
import { redactUrl } from '../chain/chain-connection';
import { isTransportFailure } from '../chain/chain-errors';
import { createJsonRpcTransport, JsonRpcTransport } from '../chain/json-rpc-http';
import { attesterLowBalanceWeiOf } from '../config/compliance.config';
import { readNetworkFileAt } from '../chain/network/network-loader';
import { DEPLOY_HINT } from '../chain/network/network-probes';
import { mismatchLines, verifyNetwork, warningLines } from '../chain/network/verify-network';
import { configuredAttester } from './attester-key-commands';
import { CliUsageError } from './cli-usage';

/** Public RPCs can be slow; an operator waits longer than a request does. */
const RPC_TIMEOUT_MS = 15_000;

interface VerifyNetworkArgs {
  rpc: string;
  networkFile: string;
  json: boolean;
}

export function parseVerifyNetworkArgs(args: string[]): VerifyNetworkArgs {
  const values: Partial<Record<'rpc' | 'network-file', string>> = {};
  let json = false;
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i];
    const value = args[i + 1];
    if (flag === '--json') json = true;
    else if ((flag === '--rpc' || flag === '--network-file') && value && !value.startsWith('--')) {
      values[flag.slice(2) as 'rpc' | 'network-file'] = value;
      i += 1;
    } else throw new CliUsageError(`Unexpected argument: ${flag}`);
  }
  if (!values.rpc) throw new CliUsageError('--rpc is required');
  if (!values['network-file']) throw new CliUsageError('--network-file is required');
  if (!/^https?:\/\//.test(values.rpc)) throw new CliUsageError('--rpc must be an http(s) URL');
  return { rpc: values.rpc, networkFile: resolve(values['network-file']), json };
}

/** Runs the check; returns the exit code and what to print on stdout. */
export async function verifyNetworkCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ exitCode: number; output: string }> {
  const { rpc, networkFile, json } = parseVerifyNetworkArgs(args);
  const attester = configuredAttester(env);
  const file = readNetworkFileAt(networkFile);
  const transport = createJsonRpcTransport(rpc, RPC_TIMEOUT_MS);
  const chain = `the chain at ${redactUrl(rpc)}`;
  try {
    // Hook v3: the hook must accept the key the service signs authorizations with (its own
    // AUTHORIZER_PRIVATE_KEY, else the attester's, as the service defaults outside production).
    const authorizerKey = env.AUTHORIZER_PRIVATE_KEY?.trim();
    const authorizer = /^0x[0-9a-fA-F]{64}$/.test(authorizerKey ?? '')
      ? new Wallet(authorizerKey!).address
      : undefined;
    const options = authorizer ? { attester, authorizer } : { attester };
    const result = await verifyNetwork(transport, file, options).catch((err: unknown) => {
      if (!isTransportFailure(err)) throw err;
      throw new Error(
        `Cannot verify ${networkFile}: ${chain} did not answer (${(err as Error).message})`,
      );
    });
    const exitCode = result.ok ? 0 : 1;
    const funds = attester ? await attesterFunds(transport, attester, env) : undefined;
    if (json)
      return {
        exitCode,
        output: `${JSON.stringify({ networkFile, attester, ...result, ...(funds && { attesterFunds: funds }) })}\n`,
      };
    const warning =
      (funds?.low ? `${lowBalanceWarning(attester!, funds, rpc)}\n` : '') +
      warningLines(result)
        .map((line) => `WARNING: ${line}\n`)
        .join('');
    if (result.ok)
      return {
        exitCode,
        output:
          `OK: ${networkFile} matches ${chain} (chainId ${file.chainId}): ${result.checks.length} checks passed\n` +
          '  every address has code, hook flags exact, WETH is token0, hook wiring, pool initialized' +
          `${attester ? `, attester ${attester} registered` : ''}\n${warning}`,
      };
    const mismatches = mismatchLines(result);
    const lines = warning ? [...mismatches, ...warning.trimEnd().split('\n')] : mismatches;
    const undeployed = lines.some((line) => line.endsWith(DEPLOY_HINT));
    return {
      exitCode,
      output:
        `MISMATCH: ${networkFile} does not match ${chain}: ${mismatches.length} of ${result.checks.length} checks failed\n` +
        `${lines.join('\n')}\n` +
        (undeployed
          ? `To deploy: npm run cli -- deploy --rpc ${redactUrl(rpc)} --network-file ${networkFile} --deployer-key-file <file>\n`
          : ''),
    };
  } finally {
    transport.destroy();
  }
}

interface AttesterFunds {
  balanceEth: string;
  thresholdEth: string;
  low: boolean;
}

/**
 * The attester's balance against ATTESTER_LOW_BALANCE_ETH: a warning, not a mismatch (the file
 * is right; the account needs money before activations fail with BROADCAST_FAILED).
 */
async function attesterFunds(
  transport: JsonRpcTransport,
  attester: string,
  env: NodeJS.ProcessEnv,
): Promise<AttesterFunds> {
  const threshold = attesterLowBalanceWeiOf(env);
  const balance = BigInt(await transport.send<string>('eth_getBalance', [attester, 'latest']));
  return {
    balanceEth: formatEther(balance),
    thresholdEth: formatEther(threshold),
    low: balance < threshold,
  };
}

function lowBalanceWarning(attester: string, funds: AttesterFunds, rpc: string): string {
  return (
    `WARNING: the attester ${attester} holds ${funds.balanceEth} ETH, below ATTESTER_LOW_BALANCE_ETH (${funds.thresholdEth}): ` +
    `activations will fail with BROADCAST_FAILED (insufficient funds). Fund it: npm run cli -- attester fund --rpc ${redactUrl(rpc)} --from-key-file <file> --amount-eth <ETH>`
  );
}
