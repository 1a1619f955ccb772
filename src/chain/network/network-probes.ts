/**
 * The contract reads of the network check (verify-network.ts), each a Multicall3 call and the
 * judgement of its answer: the hook's wiring (PoolManager, registry, routers, quoter), the
 * registry's attesters, the tokens' decimals and the pool's price. Pure: no RPC here.
 */
import { selectorOf, selectorsOf } from '../abi/selectors';
import { AbiCoder, getAddress, isAddress, keccak256 } from 'ethers';
import { COMPLIANCE_HOOK } from '../abi/compliance-hook';
import { COMPLIANCE_HOOK_V3 } from '../abi/compliance-hook-v3';
import { COMPLIANCE_REGISTRY } from '../abi/compliance-registry';
import { ERC20 } from '../abi/erc20';
import { POOL_KEY_TUPLE, STATE_VIEW } from '../abi/uniswap-v4';
import { encodeStaticCall, readWord } from '../encoding/abi-words';
import type { NetworkFile } from './network-definition';

export interface NetworkCheck {
  /** Path of the field of the network file it judges (`contracts.complianceHook`), or the setting. */
  field: string;
  ok: boolean;
  message: string;
  /** Set on a check that passes with a warning: the file is right, the chain is weaker than it should be. */
  warning?: true;
}

export interface NetworkVerification {
  ok: boolean;
  checks: NetworkCheck[];
}

export interface VerifyNetworkOptions {
  /** Address of the key the service attests with (ATTESTER_PRIVATE_KEY): must be a registry attester. */
  attester?: string;
  /** The field the attester's address came from (default ATTESTER_PRIVATE_KEY; PKCS11_KEY_LABEL). */
  attesterField?: string;
  /** The standby attester's address (ATTESTER_STANDBY_PRIVATE_KEY or PKCS11_STANDBY_KEY_LABEL). */
  standbyAttester?: string;
  standbyAttesterField?: string;
  /** Hook v3: the address the service signs trade authorizations with (AUTHORIZER_PRIVATE_KEY). */
  authorizer?: string;
  /** The field the authorizer's address came from (default AUTHORIZER_PRIVATE_KEY). */
  authorizerField?: string;
}

export const OURS_TOKEN = 'tokens.tUSDC.address';
export const DEPLOY_HINT = 'run npm run cli -- deploy';

/** A contract read of the batch and how its answer (undefined: reverted or empty) is judged. */
export interface Probe {
  /** Fields whose addresses must have passed their own checks for this read to mean anything. */
  needs: string[];
  target: string;
  callData: string;
  judge(answer: string | undefined): NetworkCheck;
}

export const pass = (field: string, message: string): NetworkCheck => ({
  field,
  ok: true,
  message,
});
/** Not a mismatch: the operator should know (e.g. an attestation schema nobody guards). */
export const warn = (field: string, message: string): NetworkCheck => ({
  field,
  ok: true,
  message,
  warning: true,
});
export const fail = (field: string, message: string): NetworkCheck => ({
  field,
  ok: false,
  message,
});

const SELECTOR = {
  decimals: selectorOf(ERC20, 'decimals'),
  isAttester: selectorOf(COMPLIANCE_REGISTRY, 'isAttester'),
  ...selectorsOf(COMPLIANCE_HOOK, ['poolManager', 'registry', 'isRouter', 'isQuoter']),
  ...selectorsOf(COMPLIANCE_HOOK_V3, ['VERSION', 'isAuthorizer', 'isEnforcer']),
  ...selectorsOf(STATE_VIEW, ['getSlot0', 'getLiquidity']),
};

const wordAddress = (answer: string) =>
  getAddress(`0x${readWord(answer, 0).toString(16).padStart(40, '0')}`);

/** The reads of `file` whose addresses are known (`at`: field path -> checksummed address). */
export function contractProbes(
  file: NetworkFile,
  at: Map<string, string>,
  options: VerifyNetworkOptions,
): Probe[] {
  const probes: Probe[] = [];
  const a = (field: string) => at.get(field) ?? '';
  const HOOK = 'contracts.complianceHook';
  const REGISTRY = 'contracts.complianceRegistry';
  const notOurHook = (fn: string) =>
    fail(HOOK, `${a(HOOK)} does not answer ${fn}: not our ComplianceHook`);

  const wiring: Array<[string, 'poolManager' | 'registry', string]> = [
    ['contracts.poolManager', 'poolManager', 'PoolManager'],
    [REGISTRY, 'registry', 'registry'],
  ];
  for (const [field, fn, what] of wiring) {
    probes.push({
      needs: [HOOK, field],
      target: a(HOOK),
      callData: encodeStaticCall(SELECTOR[fn], []),
      judge: (answer) => {
        if (!answer) return notOurHook(`${fn}()`);
        const wired = wordAddress(answer);
        return wired === a(field)
          ? pass(field, `the hook's ${what} is ${wired}`)
          : fail(field, `the hook's ${what} is ${wired}, the file says ${a(field)}`);
      },
    });
  }
  const allowlists: Array<[string, 'isRouter' | 'isQuoter']> = [
    ['contracts.universalRouter', 'isRouter'],
    ['contracts.positionManager', 'isRouter'],
    ['contracts.v4Quoter', 'isQuoter'],
  ];
  for (const [field, fn] of allowlists) {
    probes.push({
      needs: [HOOK, field],
      target: a(HOOK),
      callData: encodeStaticCall(SELECTOR[fn], [a(field)]),
      judge: (answer) => {
        if (!answer) return notOurHook(`${fn}(address)`);
        return readWord(answer, 0) === 1n
          ? pass(field, `the hook allows it (${fn})`)
          : fail(field, `the hook does not allow ${a(field)} (${fn} is false)`);
      },
    });
  }

  const attesters: Array<[string, string | undefined]> = [
    [options.attesterField ?? 'ATTESTER_PRIVATE_KEY', options.attester],
    [options.standbyAttesterField ?? 'ATTESTER_STANDBY_PRIVATE_KEY', options.standbyAttester],
    ['deployment.attester', file.deployment?.attester],
  ];
  for (const [field, attester] of attesters) {
    if (!attester || !isAddress(attester)) continue;
    probes.push({
      needs: [REGISTRY],
      target: a(REGISTRY),
      callData: encodeStaticCall(SELECTOR.isAttester, [getAddress(attester)]),
      judge: (answer) => {
        if (!answer)
          return fail(REGISTRY, `${a(REGISTRY)} does not answer isAttester: not our registry`);
        return readWord(answer, 0) === 1n
          ? pass(field, `${getAddress(attester)} is an attester of the registry`)
          : fail(
              field,
              `${getAddress(attester)} is not an attester of the registry ${a(REGISTRY)}`,
            );
      },
    });
  }

  if (file.hookVersion === 3) probes.push(...authorizerProbes(file, options, a(HOOK)));

  for (const symbol of Object.keys(file.tokens)) {
    const field = `tokens.${symbol}.address`;
    if (!at.has(field)) continue;
    const declared = file.tokens[symbol].decimals;
    probes.push({
      needs: [field],
      target: a(field),
      callData: encodeStaticCall(SELECTOR.decimals, []),
      judge: (answer) => {
        if (!answer) return fail(field, `${a(field)} does not answer decimals(): not an ERC-20`);
        const decimals = Number(readWord(answer, 0));
        return decimals === declared
          ? pass(`tokens.${symbol}.decimals`, `${decimals}, as on chain`)
          : fail(
              `tokens.${symbol}.decimals`,
              `the token at ${a(field)} has ${decimals} decimals, the file says ${declared} (wrong ${field}?)`,
            );
      },
    });
  }

  const POOL_NEEDS = ['contracts.stateView', 'tokens.WETH.address', OURS_TOKEN, HOOK];
  if (POOL_NEEDS.every((field) => at.has(field))) {
    const [currency0, currency1] = [a('tokens.WETH.address'), a(OURS_TOKEN)].sort((x, y) =>
      BigInt(x) < BigInt(y) ? -1 : 1,
    );
    const key = [currency0, currency1, file.pool.fee, file.pool.tickSpacing, a(HOOK)];
    const poolId = keccak256(AbiCoder.defaultAbiCoder().encode([POOL_KEY_TUPLE], [key]));
    const described = `WETH/tUSDC (fee ${file.pool.fee}, tickSpacing ${file.pool.tickSpacing}, hooks ${a(HOOK)})`;
    probes.push({
      needs: POOL_NEEDS,
      target: a('contracts.stateView'),
      callData: encodeStaticCall(SELECTOR.getSlot0, [poolId]),
      judge: (answer) => {
        if (!answer)
          return fail('contracts.stateView', 'does not answer getSlot0: not a StateView');
        const sqrtPriceX96 = readWord(answer, 0);
        return sqrtPriceX96 !== 0n
          ? pass('pool', `${described} is initialized (sqrtPriceX96 ${sqrtPriceX96})`)
          : fail('pool', `${described} is not initialized; ${DEPLOY_HINT}`);
      },
    });
  }
  probes.push(...marketPoolProbes(file, at));
  return probes;
}

/**
 * Hook v3 (issue 54): the hook says VERSION 3, accepts every authorizer the file lists and the
 * one the service signs with (AUTHORIZER_PRIVATE_KEY), and the file's attester is its enforcer.
 */
function authorizerProbes(file: NetworkFile, options: VerifyNetworkOptions, hook: string): Probe[] {
  const HOOK = 'contracts.complianceHook';
  const probes: Probe[] = [
    {
      needs: [HOOK],
      target: hook,
      callData: encodeStaticCall(SELECTOR.VERSION, []),
      judge: (answer) =>
        answer && readWord(answer, 0) === 3n
          ? pass('hookVersion', `the hook at ${hook} is version 3`)
          : fail(
              'hookVersion',
              `the file says 3, the hook at ${hook} answers ${answer ? readWord(answer, 0) : 'no VERSION()'}`,
            ),
    },
  ];
  const authorizers: Array<[string, string]> = (file.authorizers ?? []).map((address, i) => [
    `authorizers[${i}]`,
    address,
  ]);
  if (options.authorizer)
    authorizers.push([options.authorizerField ?? 'AUTHORIZER_PRIVATE_KEY', options.authorizer]);
  for (const [field, address] of authorizers) {
    // A file's malformed authorizer is refused when it is loaded (resolveHookVersion).
    if (!isAddress(address)) continue;
    probes.push({
      needs: [HOOK],
      target: hook,
      callData: encodeStaticCall(SELECTOR.isAuthorizer, [getAddress(address)]),
      judge: (answer) =>
        answer && readWord(answer, 0) === 1n
          ? pass(field, `the hook accepts authorizations signed by ${getAddress(address)}`)
          : fail(
              field,
              `the hook ${hook} does not accept authorizations signed by ${getAddress(address)} (isAuthorizer is false): ${DEPLOY_HINT} --authorizer ${getAddress(address)}`,
            ),
    });
  }
  const attester = file.deployment?.attester;
  if (attester && isAddress(attester))
    probes.push({
      needs: [HOOK],
      target: hook,
      callData: encodeStaticCall(SELECTOR.isEnforcer, [getAddress(attester)]),
      judge: (answer) =>
        answer && readWord(answer, 0) === 1n
          ? pass('deployment.attester', `${getAddress(attester)} is the hook's enforcer`)
          : fail(
              'deployment.attester',
              `${getAddress(attester)} is not an enforcer of the hook ${hook}: it cannot flag wallets; ${DEPLOY_HINT}`,
            ),
    });
  return probes;
}

/**
 * Every pool of the file's `pools` (issue 42): its key (currencies by address or symbol, sorted;
 * the current hook) initialized on the chain, with liquidity (an empty pool passes, noted).
 */
function marketPoolProbes(file: NetworkFile, at: Map<string, string>): Probe[] {
  const probes: Probe[] = [];
  const hook = at.get('contracts.complianceHook');
  (file.pools ?? []).forEach((entry, i) => {
    const field = `pools[${i}]`;
    const tokenField = (currency: string) =>
      isAddress(currency)
        ? Object.keys(file.tokens)
            .map((symbol) => `tokens.${symbol}.address`)
            .find((f) => at.get(f) === getAddress(currency))
        : `tokens.${currency}.address`;
    const fields = [tokenField(entry.currency0), tokenField(entry.currency1)];
    const needs = ['contracts.stateView', 'contracts.complianceHook', ...fields] as string[];
    if (!hook || fields.some((f) => f === undefined || !at.has(f))) return;
    const currencies = fields
      .map((f) => at.get(f!)!)
      .sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1));
    const key = [...currencies, entry.fee, entry.tickSpacing, hook];
    const poolId = keccak256(AbiCoder.defaultAbiCoder().encode([POOL_KEY_TUPLE], [key]));
    const symbols = fields.map((f) => f!.split('.')[1]).join('/');
    const described = `${symbols} (fee ${entry.fee}, tickSpacing ${entry.tickSpacing}, poolId ${poolId})`;
    probes.push({
      needs,
      target: at.get('contracts.stateView')!,
      callData: encodeStaticCall(SELECTOR.getSlot0, [poolId]),
      judge: (answer) => {
        if (entry.hooks && getAddress(entry.hooks) !== hook)
          return fail(`${field}.hooks`, `${entry.hooks} is not the current ComplianceHook ${hook}`);
        if (entry.id && entry.id.toLowerCase() !== poolId)
          return fail(`${field}.id`, `${entry.id} is not the PoolId of the key (${poolId})`);
        if (!answer)
          return fail('contracts.stateView', 'does not answer getSlot0: not a StateView');
        const sqrtPriceX96 = readWord(answer, 0);
        return sqrtPriceX96 !== 0n
          ? pass(field, `${described} is initialized (sqrtPriceX96 ${sqrtPriceX96})`)
          : fail(field, `${described} is not initialized; ${DEPLOY_HINT}`);
      },
    });
    probes.push({
      needs,
      target: at.get('contracts.stateView')!,
      callData: encodeStaticCall(SELECTOR.getLiquidity, [poolId]),
      judge: (answer) => {
        if (!answer)
          return fail('contracts.stateView', 'does not answer getLiquidity: not a StateView');
        const liquidity = readWord(answer, 0);
        return pass(
          `${field}.liquidity`,
          liquidity > 0n
            ? `${symbols} fee ${entry.fee} holds liquidity ${liquidity}`
            : `${symbols} fee ${entry.fee} has no liquidity yet (npm run cli -- deploy --seed-liquidity seeds it)`,
        );
      },
    });
  });
  return probes;
}
