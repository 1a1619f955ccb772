/**
 * `npm run cli -- attester fund --rpc URL --from-key-file F --amount-eth X [--to ADDRESS] [--json]`:
 * sends X ETH from the key in F (a funded account: a faucet-funded wallet, the treasury) to the
 * attester, by default the address of ATTESTER_PRIVATE_KEY, and waits for it to be mined. Runs
 * without the app (no database, no configuration). Prints the transaction and the new balance.
 */
import { formatEther, getAddress, isAddress, JsonRpcProvider, parseEther } from 'ethers';
import { resolve } from 'node:path';
import { redactUrl } from '../chain/chain-connection';
import { CliUsageError } from './cli-usage';
import type { StandaloneResult } from './standalone-commands';
import type { OperatorAuditWriter } from './standalone-database';
import { readDeployerKey } from './deploy-command';
import { configuredAttester } from './attester-key-commands';

const MINED_TIMEOUT_MS = 120_000;

interface FundArgs {
  rpc: string;
  fromKeyFile: string;
  amountWei: bigint;
  to?: string;
  json: boolean;
}

export function parseFundArgs(args: string[]): FundArgs {
  const values: Record<string, string> = {};
  let json = false;
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i];
    const value = args[i + 1];
    if (flag === '--json') json = true;
    else if (
      ['--rpc', '--from-key-file', '--amount-eth', '--to'].includes(flag) &&
      value &&
      !value.startsWith('--')
    ) {
      values[flag.slice(2)] = value;
      i += 1;
    } else throw new CliUsageError(`Unexpected argument: ${flag}`);
  }
  for (const name of ['rpc', 'from-key-file', 'amount-eth'])
    if (!values[name]) throw new CliUsageError(`--${name} is required`);
  if (!/^https?:\/\//.test(values.rpc)) throw new CliUsageError('--rpc must be an http(s) URL');
  if (values.to !== undefined && !isAddress(values.to))
    throw new CliUsageError('--to must be an address');
  let amountWei: bigint;
  try {
    amountWei = parseEther(values['amount-eth']);
  } catch {
    amountWei = 0n;
  }
  if (amountWei <= 0n)
    throw new CliUsageError('--amount-eth must be a positive amount of ETH, e.g. 0.05');
  return {
    rpc: values.rpc,
    fromKeyFile: resolve(values['from-key-file']),
    amountWei,
    to: values.to && getAddress(values.to),
    json,
  };
}

/** Funds the attester; `audit` records it in the operator audit (`attester.funded`). */
export async function attesterFundCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  audit?: OperatorAuditWriter,
): Promise<StandaloneResult> {
  const options = parseFundArgs(args);
  const to = options.to ?? configuredAttester(env);
  if (!to)
    throw new CliUsageError(
      '--to is required when no attester is configured (ATTESTER_PRIVATE_KEY, or ATTESTER_SIGNER=pkcs11 with its PKCS11_* settings)',
    );
  const { wallet, warnings } = readDeployerKey(options.fromKeyFile, 'funding');
  const provider = new JsonRpcProvider(options.rpc, undefined, { staticNetwork: true });
  try {
    const from = wallet.connect(provider);
    const tx = await from.sendTransaction({ to, value: options.amountWei });
    const receipt = await tx.wait(1, MINED_TIMEOUT_MS);
    if (!receipt || receipt.status !== 1)
      throw new Error(`the funding transaction ${tx.hash} failed`);
    const balanceEth = formatEther(await provider.getBalance(to));
    const result = {
      to,
      from: wallet.address,
      amountEth: formatEther(options.amountWei),
      txHash: tx.hash,
      balanceEth,
    };
    const unrecorded = await audit?.({
      type: 'attester.funded',
      target: { type: 'attester', id: to },
      data: { from: wallet.address, amountEth: result.amountEth, txHash: tx.hash, balanceEth },
    });
    const onStderr = unrecorded ? { warnings: [unrecorded] } : {};
    if (options.json) return { exitCode: 0, output: `${JSON.stringify(result)}\n`, ...onStderr };
    return {
      ...onStderr,
      exitCode: 0,
      output:
        warnings.map((w) => `WARNING: ${w}\n`).join('') +
        `Funded ${to} with ${result.amountEth} ETH from ${wallet.address} on ${redactUrl(options.rpc)}: ${tx.hash}\n` +
        `  balance now ${balanceEth} ETH\n`,
    };
  } finally {
    provider.destroy();
  }
}
