/**
 * Reads what the chain holds of the deployment: code at our CREATE2 addresses, the registry's
 * attesters, the hook's routers, the pool's slot0 and liquidity (through StateView), and the
 * seeder's session, balances and allowances. The reads of each round are sent at once.
 */
import { COMPLIANCE_REGISTRY } from '../abi/compliance-registry';
import { COMPLIANCE_HOOK } from '../abi/compliance-hook';
import { COMPLIANCE_HOOK_V3 } from '../abi/compliance-hook-v3';
import { Interface, Result } from 'ethers';
import { ERC20 } from '../abi/erc20';
import { PERMIT2 } from '../abi/permit2';
import { STATE_VIEW } from '../abi/uniswap-v4';
import { getAddress } from 'ethers';
import { poolIdOf } from '../encoding/pool-key';
import type { DeploymentState, DeploymentTarget, FundsState } from './deployment-types';
import { Eip1193, ethCall, hasCode, rpcCall } from './deployment-rpc';

type Provider = Eip1193;

async function read(
  provider: Provider,
  to: string,
  abi: Interface,
  fn: string,
  args: unknown[] = [],
): Promise<Result> {
  const data = await ethCall(provider, to, abi.encodeFunctionData(fn, args));
  return abi.decodeFunctionResult(fn, data);
}

async function funds(
  provider: Provider,
  target: Pick<DeploymentTarget, 'infra'>,
  seeder: string,
  token: string,
  tokenHasCode: boolean,
): Promise<FundsState> {
  if (!tokenHasCode) return { balance: 0n, allowance: 0n, permit2Amount: 0n, permit2Expiration: 0 };
  const [[balance], [allowance], permit2] = await Promise.all([
    read(provider, token, ERC20, 'balanceOf', [seeder]),
    read(provider, token, ERC20, 'allowance', [seeder, target.infra.permit2]),
    read(provider, target.infra.permit2, PERMIT2, 'allowance', [
      seeder,
      token,
      target.infra.positionManager,
    ]),
  ]);
  return {
    balance: balance as bigint,
    allowance: allowance as bigint,
    permit2Amount: permit2[0] as bigint,
    permit2Expiration: Number(permit2[1]),
  };
}

export async function readDeploymentState(
  provider: Provider,
  target: DeploymentTarget,
): Promise<DeploymentState> {
  const { complianceRegistry, complianceHook } = target.contracts;
  const registry = complianceRegistry.address;
  const hook = complianceHook.address;
  const poolId = poolIdOf(target.poolKey);
  const [block, registryCode, hookCode, tokenCode, slot0, [liquidity]] = await Promise.all([
    rpcCall<{ timestamp: string } | null>(provider, 'eth_getBlockByNumber', ['latest', false]),
    hasCode(provider, registry),
    hasCode(provider, hook),
    hasCode(provider, target.token.address),
    read(provider, target.infra.stateView, STATE_VIEW, 'getSlot0', [poolId]),
    read(provider, target.infra.stateView, STATE_VIEW, 'getLiquidity', [poolId]),
  ]);
  if (!block) throw new Error('the RPC returned no latest block');

  const registryReads = registryCode
    ? Promise.all([
        read(provider, registry, COMPLIANCE_REGISTRY, 'owner'),
        read(provider, registry, COMPLIANCE_REGISTRY, 'isAttester', [target.attester]),
        read(provider, registry, COMPLIANCE_REGISTRY, 'isAttester', [target.deployer]),
        target.previousAttester
          ? read(provider, registry, COMPLIANCE_REGISTRY, 'isAttester', [target.previousAttester])
          : [false],
      ]).then(([[owner], [attesterAllowed], [deployerAllowed], [previousAttesterAllowed]]) => ({
        owner: owner as string,
        attesterAllowed: attesterAllowed as boolean,
        deployerAllowed: deployerAllowed as boolean,
        previousAttesterAllowed: previousAttesterAllowed as boolean,
      }))
    : null;
  const hookReads = hookCode
    ? Promise.all([
        read(provider, hook, COMPLIANCE_HOOK, 'owner'),
        read(provider, hook, COMPLIANCE_HOOK, 'isRouter', [target.infra.universalRouter]),
        read(provider, hook, COMPLIANCE_HOOK, 'isRouter', [target.infra.positionManager]),
        read(provider, hook, COMPLIANCE_HOOK, 'isQuoter', [target.infra.v4Quoter]),
        read(provider, hook, COMPLIANCE_HOOK_V3, 'isEnforcer', [target.attester]),
        Promise.all(
          target.authorizers.map((a) =>
            read(provider, hook, COMPLIANCE_HOOK_V3, 'isAuthorizer', [a]).then(
              ([allowed]) => [a, allowed as boolean] as const,
            ),
          ),
        ),
      ]).then(([[owner], [universalRouter], [positionManager], [quoter], [enforcer], auth]) => ({
        owner: owner as string,
        universalRouter: universalRouter as boolean,
        positionManager: positionManager as boolean,
        quoter: quoter as boolean,
        enforcer: enforcer as boolean,
        authorizers: Object.fromEntries(auth),
      }))
    : null;
  const seed = target.seed;
  const seederReads = seed
    ? Promise.all([
        registryCode
          ? read(provider, registry, COMPLIANCE_REGISTRY, 'isActive', [seed.seeder]).then(
              ([active]) => active as boolean,
            )
          : false,
        funds(provider, target, seed.seeder, target.infra.weth, true),
        funds(provider, target, seed.seeder, target.token.address, tokenCode),
      ]).then(([sessionActive, weth, token]) => ({ sessionActive, weth, token }))
    : null;

  const markets = await readMarketState(provider, target);
  return {
    markets,
    timestamp: Number(block.timestamp),
    code: { complianceRegistry: registryCode, complianceHook: hookCode, token: tokenCode },
    registry: await registryReads,
    hook: await hookReads,
    pool: { sqrtPriceX96: slot0[0] as bigint, liquidity: liquidity as bigint },
    seeder: await seederReads,
  };
}

/** What the chain holds of the market: test tokens' code, each pool's price and liquidity, the seeder's funds. */
async function readMarketState(
  provider: Provider,
  target: DeploymentTarget,
): Promise<DeploymentState['markets']> {
  const { tokens, pools } = target.markets;
  const listed = Object.values(tokens);
  const codes = await Promise.all(listed.map((t) => hasCode(provider, t.address)));
  const tokenCode = Object.fromEntries(listed.map((t, i) => [t.symbol, codes[i]]));
  const poolReads = await Promise.all(
    pools.map(async (p) => {
      const [slot0, [liquidity]] = await Promise.all([
        read(provider, target.infra.stateView, STATE_VIEW, 'getSlot0', [p.id]),
        read(provider, target.infra.stateView, STATE_VIEW, 'getLiquidity', [p.id]),
      ]);
      return [p.id, { sqrtPriceX96: slot0[0] as bigint, liquidity: liquidity as bigint }] as const;
    }),
  );
  const seeder = target.seed?.seeder;
  const seeded = new Set<string>();
  for (const p of pools)
    if (p.seed) for (const c of [p.key.currency0, p.key.currency1]) seeded.add(getAddress(c));
  const seederFunds = seeder
    ? await Promise.all(
        Object.values(tokens)
          .filter((t) => seeded.has(t.address))
          .map(
            async (t) =>
              [
                t.symbol,
                await funds(provider, target, seeder, t.address, tokenCode[t.symbol]),
              ] as const,
          ),
      )
    : [];
  return {
    tokenCode,
    pools: Object.fromEntries(poolReads),
    seederFunds: Object.fromEntries(seederFunds),
  };
}
