/**
 * `npm run cli -- deploy --rpc URL --network-file F --deployer-key-file K [--attester ADDRESS]
 * [--authorizer ADDRESS[,ADDRESS]] (hook v3's authorizers; default the file's, else the attester)
 * [--test-token | --token ADDRESS] [--initial-price 3000] [--seed-liquidity [--seed-weth 0.1]]
 * [--json]`: deploys OUR contracts (src/chain/deployment/deployment-executor.ts) on the network F
 * describes and records them in F (written atomically after every transaction, so an interrupted
 * run resumes where it stopped). Runs without the app: no database, no configuration.
 *
 * The key is read from K and only ever handed to the signer: it is never printed, logged or
 * written. Exit 0 when deployed or nothing was left to do; exit 1 when refused (nothing sent).
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatEther, getAddress, isAddress, Wallet } from 'ethers';
import { redactUrl } from '../chain/chain-connection';
import { HOOK_FLAG_MASK } from '../chain/deployment/deployment-constants';
import {
  DeployComplianceResult,
  deployCompliance,
  TokenRequest,
} from '../chain/deployment/deployment-executor';
import { eip1193Of } from '../chain/deployment/deployment-rpc';
import {
  readOperatorNetworkFile,
  writeNetworkFileAtomically,
} from '../chain/deployment/network-file-io';
import { parseDecimal, priceFromSqrtPriceX96 } from '../chain/deployment/pool-math';
import { createJsonRpcTransport } from '../chain/json-rpc-http';
import type { StandaloneResult } from './standalone-commands';
import type { OperatorAuditWriter } from './standalone-database';
import { CliUsageError } from './cli-usage';

/** Public RPCs can be slow; an operator waits longer than a request does. */
const RPC_TIMEOUT_MS = 30_000;

export interface DeployArgs {
  rpc: string;
  networkFile: string;
  deployerKeyFile: string;
  attester?: string;
  authorizers?: string[];
  token?: TokenRequest;
  initialPrice?: string;
  seed: boolean;
  seedWeth?: string;
  json: boolean;
}

const VALUE_FLAGS = [
  'rpc',
  'network-file',
  'deployer-key-file',
  'attester',
  'authorizer',
  'token',
  'initial-price',
  'seed-weth',
] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

export function parseDeployArgs(args: string[]): DeployArgs {
  const values: Partial<Record<ValueFlag, string>> = {};
  const switches = new Set<string>();
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i];
    const name = flag.startsWith('--') ? flag.slice(2) : '';
    if (['json', 'test-token', 'seed-liquidity'].includes(name)) switches.add(name);
    else if ((VALUE_FLAGS as readonly string[]).includes(name)) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--'))
        throw new CliUsageError(`${flag} needs a value`);
      values[name as ValueFlag] = value;
      i += 1;
    } else throw new CliUsageError(`Unexpected argument: ${flag}`);
  }
  for (const name of ['rpc', 'network-file', 'deployer-key-file'] as const)
    if (!values[name]) throw new CliUsageError(`--${name} is required`);
  if (!/^https?:\/\//.test(values.rpc!)) throw new CliUsageError('--rpc must be an http(s) URL');
  for (const name of ['attester', 'token'] as const)
    if (values[name] !== undefined && !isAddress(values[name]))
      throw new CliUsageError(`--${name} must be an address`);
  const authorizers = values.authorizer?.split(',').map((a) => a.trim());
  if (authorizers?.some((a) => !isAddress(a)))
    throw new CliUsageError('--authorizer must be an address, or addresses separated by commas');
  if (switches.has('test-token') && values.token)
    throw new CliUsageError('--test-token and --token exclude each other');
  for (const name of ['initial-price', 'seed-weth'] as const) {
    if (values[name] === undefined) continue;
    try {
      parseDecimal(values[name]);
    } catch {
      throw new CliUsageError(`--${name} must be a positive decimal number`);
    }
  }
  if (values['seed-weth'] && !switches.has('seed-liquidity'))
    throw new CliUsageError('--seed-weth goes with --seed-liquidity');
  return {
    rpc: values.rpc!,
    networkFile: resolve(values['network-file']!),
    deployerKeyFile: resolve(values['deployer-key-file']!),
    attester: values.attester && getAddress(values.attester),
    authorizers: authorizers?.map((a) => getAddress(a)),
    token: values.token
      ? { kind: 'existing', address: getAddress(values.token) }
      : switches.has('test-token')
        ? { kind: 'test' }
        : undefined,
    initialPrice: values['initial-price'],
    seed: switches.has('seed-liquidity'),
    seedWeth: values['seed-weth'],
    json: switches.has('json'),
  };
}

/**
 * The deployer's wallet from K: `0x` and 64 hex characters, surrounding whitespace ignored. Every
 * message names the file, never its content.
 */
export function readDeployerKey(
  path: string,
  role = 'deployer',
): { wallet: Wallet; warnings: string[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliUsageError(
      `cannot read the ${role} key file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const key = text.trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new CliUsageError(
      `the ${role} key file ${path} must hold one private key: 0x followed by 64 hex characters`,
    );
  const warnings: string[] = [];
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077)
    warnings.push(
      `the ${role} key file ${path} is readable by other users (mode ${mode.toString(8)}): chmod 600 it`,
    );
  return { wallet: new Wallet(key), warnings };
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === 1 ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd(),
  );
}

const grouped = (n: bigint) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function summary(result: DeployComplianceResult): Record<string, unknown> {
  const target = result.target;
  const totalGas = result.executed.reduce((sum, s) => sum + s.gasUsed, 0n);
  const totalFee = result.executed.reduce((sum, s) => sum + s.fee, 0n);
  return {
    outcome: result.outcome,
    problems: result.problems,
    notes: result.notes,
    transactionsSent: result.executed.length,
    steps: result.executed.map((s) => ({
      step: s.step,
      description: s.description,
      transactionHash: s.transactionHash,
      blockNumber: s.blockNumber,
      gasUsed: s.gasUsed.toString(),
      feeWei: s.fee.toString(),
    })),
    planned: result.outcome === 'refused' ? result.planned : undefined,
    totalGasUsed: totalGas.toString(),
    totalFeeWei: totalFee.toString(),
    contracts: target && {
      complianceRegistry: target.contracts.complianceRegistry.address,
      complianceHook: target.contracts.complianceHook.address,
      tUSDC: target.token.address,
    },
    deployer: target?.deployer,
    attester: target?.attester,
    pool: result.pool && {
      sqrtPriceX96: result.pool.sqrtPriceX96.toString(),
      liquidity: result.pool.liquidity.toString(),
    },
    deploymentBlock: result.file.deployment?.block,
  };
}

function report(result: DeployComplianceResult, networkFile: string, rpc: string): string {
  const target = result.target;
  const lines: string[] = [];
  if (result.outcome === 'refused') {
    lines.push(`Refused: nothing was sent to ${rpc}.`);
    lines.push(...result.problems.map((p) => `  - ${p}`));
    if (result.planned.length > 0)
      lines.push(
        'Steps it would have sent:',
        ...result.planned.map((s) => `  ${s.step}: ${s.description}`),
      );
    return `${lines.join('\n')}\n`;
  }
  if (result.outcome === 'nothing-to-do') {
    lines.push(
      `Nothing to do: the deployment is complete on chainId ${result.file.chainId} (${rpc}); no transaction sent.`,
    );
  } else {
    const rows = [['step', 'gas used', 'transaction']];
    for (const s of result.executed) rows.push([s.step, grouped(s.gasUsed), s.transactionHash]);
    const gas = result.executed.reduce((sum, s) => sum + s.gasUsed, 0n);
    const fee = result.executed.reduce((sum, s) => sum + s.fee, 0n);
    rows.push(['total', grouped(gas), `${formatEther(fee)} ETH in fees`]);
    lines.push(
      `Deployed on chainId ${result.file.chainId} (${rpc}): ${result.executed.length} transactions.`,
    );
    lines.push(...table(rows).map((l) => `  ${l}`));
  }
  lines.push(...result.notes.map((n) => `note: ${n}`));
  if (target) {
    const hook = target.contracts.complianceHook.address;
    const flags = `0x${(BigInt(hook) & HOOK_FLAG_MASK).toString(16).padStart(4, '0')}`;
    lines.push(
      `  complianceRegistry  ${target.contracts.complianceRegistry.address}  (owner ${target.deployer}, attester ${target.attester})`,
      `  complianceHook      ${hook}  (flags ${flags})`,
      `  tUSDC               ${target.token.address}  (${target.token.kind === 'test' ? 'test token' : target.token.name})`,
    );
    if (result.pool) {
      const price = priceFromSqrtPriceX96(result.pool.sqrtPriceX96, 18, target.token.decimals);
      lines.push(
        `  pool WETH/tUSDC     initialized at ${price.toPrecision(6)} tUSDC per WETH, liquidity ${result.pool.liquidity}`,
      );
    }
  }
  lines.push(
    `Network file: ${networkFile} (deployment block ${result.file.deployment?.block ?? 'n/a'})`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * Runs `deploy`; `audit` records an attester rotation it made (registryAttester with an earlier
 * attester revoked: `attester.rotated`) in the operator audit.
 */
export async function deployCommand(
  args: string[],
  audit?: OperatorAuditWriter,
): Promise<StandaloneResult> {
  const options = parseDeployArgs(args);
  const { wallet, warnings } = readDeployerKey(options.deployerKeyFile);
  const file = readOperatorNetworkFile(options.networkFile);
  const transport = createJsonRpcTransport(options.rpc, RPC_TIMEOUT_MS);
  const rpc = redactUrl(options.rpc);
  try {
    const result = await deployCompliance({
      rpc: eip1193Of(transport),
      file,
      deployer: wallet,
      attester: options.attester,
      authorizers: options.authorizers,
      token: options.token,
      initialPrice: options.initialPrice,
      seed: options.seed ? { weth: options.seedWeth } : null,
      onProgress: (progress) => writeNetworkFileAtomically(options.networkFile, progress),
    });
    if (result.outcome !== 'refused' && JSON.stringify(result.file) !== JSON.stringify(file))
      writeNetworkFileAtomically(options.networkFile, result.file);
    const exitCode = result.outcome === 'refused' ? 1 : 0;
    const warningLines = warnings.map((w) => `warning: ${w}\n`).join('');
    const revoked = result.executed.find((s) => s.step === 'registryAttesterRevoke');
    const unrecorded =
      revoked && result.target
        ? await audit?.({
            type: 'attester.rotated',
            target: { type: 'attester', id: result.target.attester },
            data: {
              previous: result.target.previousAttester,
              registry: result.target.contracts.complianceRegistry.address,
              txHash: revoked.transactionHash,
            },
          })
        : undefined;
    const onStderr = unrecorded ? { warnings: [unrecorded] } : {};
    if (options.json)
      return {
        exitCode,
        output: `${JSON.stringify({ networkFile: options.networkFile, warnings, ...summary(result) })}\n`,
        ...onStderr,
      };
    return {
      exitCode,
      output: warningLines + report(result, options.networkFile, rpc),
      ...onStderr,
    };
  } finally {
    transport.destroy();
  }
}
