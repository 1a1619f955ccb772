/**
 * Does a network file describe the chain behind an RPC? Every address has code, the hook address
 * carries exactly our hook's permission flags, WETH sorts below tUSDC (token0), the hook is wired
 * to the file's PoolManager, registry, routers and quoter, the WETH/tUSDC pool with our hook is
 * initialized, the configured attester is one of the registry's, and the RPC serves the file's
 * chainId. Used by `npm run cli -- verify-network` and once at the service's start.
 *
 * Three JSON-RPC requests, sent at once: eth_chainId, ONE deployless eth_call answering the code
 * size of every address (encoding/code-sizes.ts), and ONE Multicall3 aggregate3 eth_call carrying
 * every contract read; a file with attestation sources adds two (attestation-probes.ts: are the
 * schemas guarded, is the indexer role-guarded; warnings). A check runs only when the addresses
 * it reads passed theirs: a field is reported once, for its root cause, not again by each read
 * that depends on it.
 */
import { getAddress, isAddress } from 'ethers';
import { isTransportFailure } from '../chain-errors';
import { HOOK_FLAG_MASK, HOOK_FLAGS_V2, HOOK_FLAGS_V3 } from '../deployment/deployment-constants';
import { codeSizesCallData, decodeCodeSizes } from '../encoding/code-sizes';
import { attestationSourceChecks } from './attestation-probes';
import { Call3Result, decodeAggregate3, encodeAggregate3 } from '../encoding/multicall';
import type { JsonRpcTransport } from '../json-rpc-http';
import type { NetworkFile } from './network-definition';
import {
  contractProbes,
  DEPLOY_HINT,
  fail,
  NetworkCheck,
  NetworkVerification,
  OURS_TOKEN,
  pass,
  Probe,
  VerifyNetworkOptions,
} from './network-probes';

export type { NetworkCheck, NetworkVerification, VerifyNetworkOptions };

/** The JSON-RPC it needs: the service's ChainConnection.reads, or the CLI's own transport. */
export type NetworkRpc = Pick<JsonRpcTransport, 'send'>;

/** Deployed by `npm run cli -- deploy`: null in a file means "not deployed yet". */
const OURS = new Set(['contracts.complianceRegistry', 'contracts.complianceHook']);
const OPTIONAL = new Set(['contracts.positionDescriptor', 'contracts.create2Deployer']);

const hex = (value: bigint) => `0x${value.toString(16).padStart(4, '0')}`;

/** Every address field of the file, in file order: `[field path, value]`. */
function addressFields(file: NetworkFile): Array<[string, string | null | undefined]> {
  return [
    ...Object.entries(file.contracts).map(
      ([key, value]) => [`contracts.${key}`, value] as [string, string | null | undefined],
    ),
    ...Object.entries(file.tokens).map(
      ([symbol, token]) => [`tokens.${symbol}.address`, token.address] as [string, string | null],
    ),
  ];
}

function nullAddress(field: string, file: NetworkFile): NetworkCheck {
  const symbol = /^tokens\.(.+)\.address$/.exec(field)?.[1];
  return OURS.has(field) || field === OURS_TOKEN || (symbol && file.tokens[symbol]?.test)
    ? fail(field, `is null: our contracts are not deployed on this network yet; ${DEPLOY_HINT}`)
    : fail(field, 'is null: the file must name this contract');
}

export async function verifyNetwork(
  rpc: NetworkRpc,
  file: NetworkFile,
  options: VerifyNetworkOptions = {},
): Promise<NetworkVerification> {
  const checks: NetworkCheck[] = [];
  const at = new Map<string, string>();
  for (const [field, value] of addressFields(file)) {
    if (value === null || value === undefined) {
      if (!OPTIONAL.has(field)) checks.push(nullAddress(field, file));
    } else if (!isAddress(value)) checks.push(fail(field, `is not an address (${value})`));
    else at.set(field, getAddress(value));
  }
  const fields = [...at.keys()];
  const probes = contractProbes(file, at, options);
  const [chainId, sizes, answers] = await Promise.all([
    rpc.send<string>('eth_chainId', []).then(Number),
    codeSizes(rpc, [...at.values()]),
    batch(rpc, at.get('contracts.multicall3'), probes),
  ]);

  checks.push(
    chainId === file.chainId
      ? pass('chainId', `the RPC serves chainId ${chainId}`)
      : fail('chainId', `the RPC serves chainId ${chainId}, the file says ${file.chainId}`),
  );
  fields.forEach((field, k) =>
    checks.push(
      sizes[k] > 0
        ? pass(field, `${at.get(field)} has code (${sizes[k]} bytes)`)
        : fail(field, `${at.get(field)} has no code on this chain`),
    ),
  );
  checks.push(...addressRules(file, at));
  positionLogsRule(file, checks);

  const failed = new Set(checks.filter((c) => !c.ok).map((c) => c.field));
  if (answers === 'not-multicall3') {
    checks.push(fail('contracts.multicall3', 'does not answer Multicall3.aggregate3'));
  } else if (answers) {
    probes.forEach((probe, i) => {
      if (probe.needs.some((field) => failed.has(field) || !at.has(field))) return;
      const r = answers[i];
      checks.push(probe.judge(r.success && r.returnData.length >= 66 ? r.returnData : undefined));
    });
  }
  const multicall3 = at.get('contracts.multicall3');
  if (answers && answers !== 'not-multicall3' && !failed.has('contracts.multicall3'))
    checks.push(
      ...(await attestationSourceChecks(file, async (reads) => {
        const answered = await batch(rpc, multicall3, reads);
        return answered === 'not-multicall3' ? undefined : answered;
      })),
    );
  return { ok: checks.every((c) => c.ok), checks };
}

/** The failed checks as `field: message` lines, in check order. */
export function mismatchLines(result: NetworkVerification): string[] {
  return result.checks.filter((c) => !c.ok).map((c) => `${c.field}: ${c.message}`);
}

/** The checks that passed with a warning, as `field: message` lines. */
export function warningLines(result: NetworkVerification): string[] {
  return result.checks.filter((c) => c.warning).map((c) => `${c.field}: ${c.message}`);
}

/** Rules on the addresses themselves: the hook's permission bits and the token order. */
function addressRules(file: NetworkFile, at: Map<string, string>): NetworkCheck[] {
  const checks: NetworkCheck[] = [];
  const hook = at.get('contracts.complianceHook');
  if (hook) {
    const flags = BigInt(hook) & HOOK_FLAG_MASK;
    // The file's hook version (absent: 2) says which permissions its address carries.
    const v3 = file.hookVersion === 3;
    const wanted = v3 ? HOOK_FLAGS_V3 : HOOK_FLAGS_V2;
    checks.push(
      flags === wanted
        ? pass('contracts.complianceHook', `carries exactly the hook flags ${hex(wanted)}`)
        : fail(
            'contracts.complianceHook',
            `${hook} carries the hook flags ${hex(flags)}; our hook ${v3 ? 'v3' : 'v2'} needs exactly ${hex(wanted)} (beforeAddLiquidity | beforeRemoveLiquidity | beforeSwap)`,
          ),
    );
  }
  const weth = at.get('tokens.WETH.address');
  const tusdc = at.get(OURS_TOKEN);
  if (weth && tusdc) {
    checks.push(
      BigInt(weth) < BigInt(tusdc)
        ? pass(OURS_TOKEN, 'sorts above WETH: WETH is token0 of the pool')
        : fail(
            OURS_TOKEN,
            `${tusdc} sorts below WETH ${weth}: WETH must be token0 (deploy tUSDC at an address above WETH)`,
          ),
    );
  }
  return checks;
}

/** Position discovery must start at or before our deployment, or it misses positions. */
function positionLogsRule(file: NetworkFile, checks: NetworkCheck[]): void {
  const deployed = file.deployment?.block;
  const start = file.positionLogs?.startBlock ?? 0;
  if (deployed === undefined) return;
  checks.push(
    start <= deployed
      ? pass('positionLogs.startBlock', `${start} is not after our deployment (block ${deployed})`)
      : fail(
          'positionLogs.startBlock',
          `${start} is after our deployment (block ${deployed}): positions minted in between would be missed`,
        ),
  );
}

/** Code size of each address: one deployless eth_call, or eth_getCode each where refused. */
async function codeSizes(rpc: NetworkRpc, addresses: string[]): Promise<number[]> {
  try {
    const answer = await rpc.send<string>('eth_call', [
      { data: codeSizesCallData(addresses) },
      'latest',
    ]);
    return decodeCodeSizes(answer, addresses.length);
  } catch (err) {
    if (isTransportFailure(err)) throw err;
    // A node that refuses calls without `to`: one eth_getCode per address.
    return Promise.all(
      addresses.map(async (address) => {
        const code = await rpc.send<string>('eth_getCode', [address, 'latest']);
        return (code.length - 2) / 2;
      }),
    );
  }
}

/** The probes in ONE aggregate3; 'not-multicall3' when that address does not answer it. */
async function batch(
  rpc: NetworkRpc,
  multicall3: string | undefined,
  probes: Probe[],
): Promise<Call3Result[] | 'not-multicall3' | undefined> {
  if (!multicall3 || probes.length === 0) return undefined;
  const calls = probes.map((p) => ({ target: p.target, allowFailure: true, callData: p.callData }));
  try {
    const raw = await rpc.send<string>('eth_call', [
      { to: multicall3, data: encodeAggregate3(calls) },
      'latest',
    ]);
    // No code at that address answers 0x: its own check reports it, the reads are skipped.
    if (raw === '0x') return undefined;
    const results = decodeAggregate3(raw);
    return results.length === calls.length ? results : 'not-multicall3';
  } catch (err) {
    if (isTransportFailure(err)) throw err;
    return 'not-multicall3';
  }
}
