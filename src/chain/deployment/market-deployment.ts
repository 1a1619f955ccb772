/**
 * The market part of a deployment (design §9, issue 42): the test tokens the network file lists
 * (TestToken through CREATE2, salt keccak256(symbol), owned by the deployer), every listed pool
 * beyond the spec's WETH/tUSDC one initialized at its `initialPrice`, and, when seeding is asked
 * for, a full-range position of each pool's `seed` in every pool without liquidity. Existing
 * tokens (Circle's USDC on Base Sepolia) are used by address. Idempotent like the rest of the
 * plan: what the chain already holds plans nothing.
 */
import { getAddress, getCreate2Address, keccak256, MaxUint256, toUtf8Bytes } from 'ethers';
import { ERC20 } from '../abi/erc20';
import { PERMIT2 } from '../abi/permit2';
import { TEST_TOKEN } from '../abi/test-token';
import { POOL_MANAGER } from '../abi/uniswap-v4';
import { WETH } from '../abi/weth';
import { poolIdOf, poolKeyTuple } from '../encoding/pool-key';
import { marketPoolEntries, resolveMarketPool } from '../network/market-definition';
import type { NetworkFile } from '../network/network-definition';
import type { MarketFilePool, TokenInfo } from '../network/network.types';
import { initCode, loadOwnArtifact } from './contract-artifacts';
import type { Create2Contract } from './create2-addresses';
import type {
  DeploymentState,
  DeploymentTarget,
  FundsState,
  Infrastructure,
  MarketPoolTarget,
  MarketTarget,
  MarketToken,
  PlannedStep,
  TokenChoice,
} from './deployment-types';
import {
  MAX_SQRT_PRICE,
  MIN_SQRT_PRICE,
  parseDecimal,
  parseUnitsExact,
  sqrtPriceX96FromRatio,
} from './pool-math';
import { fullRangeMintData, MAX_UINT160, PERMIT2_MARGIN_SECONDS } from './seed-steps';

/** Where the test token `symbol` of this deployer goes: CREATE2 with the salt keccak256(symbol). */
export function testTokenContract(
  create2Deployer: string,
  deployer: string,
  token: { symbol: string; name: string; decimals: number },
): Create2Contract {
  const code = initCode(loadOwnArtifact('TestToken'), [
    token.name,
    token.symbol,
    token.decimals,
    getAddress(deployer),
  ]);
  const salt = keccak256(toUtf8Bytes(token.symbol));
  return {
    salt,
    initCode: code,
    address: getCreate2Address(create2Deployer, salt, keccak256(code)),
  };
}

/** sqrtPriceX96 of "amount0 whole token0 = amount1 whole token1" (the file's `initialPrice`). */
export function sqrtPriceX96OfAmounts(
  amount0: string,
  decimals0: number,
  amount1: string,
  decimals1: number,
): bigint {
  const a0 = parseDecimal(amount0);
  const a1 = parseDecimal(amount1);
  const sqrtPriceX96 = sqrtPriceX96FromRatio(
    a1.numerator * 10n ** BigInt(decimals1) * a0.denominator,
    a1.denominator * a0.numerator * 10n ** BigInt(decimals0),
  );
  if (sqrtPriceX96 < MIN_SQRT_PRICE || sqrtPriceX96 >= MAX_SQRT_PRICE)
    throw new RangeError(
      `the price ${amount0} = ${amount1} is outside the range a v4 pool can be initialized at`,
    );
  return sqrtPriceX96;
}

/** A file pool keyed anew on the current hook (its id follows). */
function rekeyed(entry: MarketFilePool): MarketFilePool {
  return Object.assign({}, entry, { id: null, hooks: null });
}

export interface MarketTargetRequest {
  file: Pick<NetworkFile, 'name' | 'tokens' | 'pool' | 'pools'>;
  infra: Infrastructure;
  deployer: string;
  hook: string;
  /** tUSDC as this deployment resolves it (our test token or an existing one). */
  tusdc: TokenChoice;
  /** Seeding was asked for: pools with a `seed` get it. */
  seed: boolean;
}

function marketToken(request: MarketTargetRequest, symbol: string): MarketToken {
  const entry = request.file.tokens[symbol];
  const base = { symbol, name: entry.name, decimals: entry.decimals };
  const token = (address: string, contract: Create2Contract | null, mintable: boolean) => ({
    symbol,
    name: entry.name,
    decimals: entry.decimals,
    address,
    contract,
    mintable,
    weth: symbol === 'WETH',
  });
  if (symbol === 'WETH') return token(request.infra.weth, null, false);
  if (symbol === 'tUSDC') return token(request.tusdc.address, null, request.tusdc.kind === 'test');
  const predicted = entry.test
    ? testTokenContract(request.infra.create2Deployer, request.deployer, base)
    : null;
  if (entry.address) {
    const address = getAddress(entry.address);
    const ours = predicted?.address === address;
    return token(address, ours ? predicted : null, ours);
  }
  if (!predicted)
    throw new Error(
      `Network configuration: ${request.file.name}.tokens.${symbol}.address is null: give the token's address, or mark it "test": true for deploy to deploy a test token`,
    );
  return token(predicted.address, predicted, true);
}

/** The file's market resolved for this deployment (throws on a malformed market). */
export function resolveMarketTarget(request: MarketTargetRequest): MarketTarget {
  const tokens: Record<string, MarketToken> = {};
  for (const symbol of Object.keys(request.file.tokens))
    tokens[symbol] = marketToken(request, symbol);
  const infos: Record<string, TokenInfo> = {};
  for (const t of Object.values(tokens))
    infos[t.symbol] = { symbol: t.symbol, name: t.name, decimals: t.decimals, address: t.address };
  const bySymbolAddress = new Map(Object.values(tokens).map((t) => [t.address, t]));
  const specId = resolveMarketPool(
    { id: null, currency0: 'WETH', currency1: 'tUSDC', ...request.file.pool },
    infos,
    request.hook,
    `${request.file.name}.pool`,
    { sorted: false },
  ).id;
  const pools: MarketPoolTarget[] = [];
  marketPoolEntries(request.file).forEach((entry, i) => {
    const at = `${request.file.name}.pools[${i}]`;
    // Keyed on the current hook: a new hook version gets its own pools (the old ones are deprecated).
    const pool = resolveMarketPool(rekeyed(entry), infos, request.hook, at, { sorted: false });
    if (pool.id === specId) return;
    const t0 = bySymbolAddress.get(pool.currency0)!;
    const t1 = bySymbolAddress.get(pool.currency1)!;
    const price = entry.initialPrice;
    pools.push({
      id: pool.id,
      key: {
        currency0: pool.currency0,
        currency1: pool.currency1,
        fee: pool.fee,
        tickSpacing: pool.tickSpacing,
        hooks: pool.hooks,
      },
      label: `${t0.symbol}/${t1.symbol} ${pool.fee}`,
      sqrtPriceX96: price
        ? sqrtPriceX96OfAmounts(price[t0.symbol]!, t0.decimals, price[t1.symbol]!, t1.decimals)
        : null,
      seed:
        request.seed && entry.seed
          ? {
              amount0: parseUnitsExact(entry.seed[t0.symbol]!, t0.decimals),
              amount1: parseUnitsExact(entry.seed[t1.symbol]!, t1.decimals),
            }
          : null,
    });
  });
  return { tokens, pools };
}

const EMPTY_FUNDS: FundsState = {
  balance: 0n,
  allowance: 0n,
  permit2Amount: 0n,
  permit2Expiration: 0,
};

export interface MarketPlanContext {
  steps: PlannedStep[];
  problems: string[];
  notes: string[];
  /** Opens the seeder's session (once) when a seed needs it. */
  openSeedSession: () => void;
  /** Units of each token (by symbol) the spec pool's seed in this same plan takes first. */
  specSeedUse: Record<string, bigint>;
}

/** The market's missing steps, appended to the plan. */
export function planMarkets(
  target: DeploymentTarget,
  state: DeploymentState,
  ctx: MarketPlanContext,
): void {
  const { tokens, pools } = target.markets;
  const { steps, problems, notes } = ctx;
  for (const token of Object.values(tokens)) {
    if (!token.contract || state.markets.tokenCode[token.symbol]) continue;
    steps.push({
      step: `marketToken:${token.symbol}`,
      description: `deploy the test token ${token.symbol} (${token.decimals} decimals) at ${token.address} (CREATE2)`,
      from: 'deployer',
      to: target.infra.create2Deployer,
      data: token.contract.salt + token.contract.initCode.slice(2),
      value: 0n,
    });
  }
  const toSeed: MarketPoolTarget[] = [];
  for (const pool of pools) {
    const now = state.markets.pools[pool.id];
    let sqrtPriceX96 = now.sqrtPriceX96;
    if (sqrtPriceX96 === 0n) {
      if (pool.sqrtPriceX96 === null) {
        problems.push(
          `the pool ${pool.label} (${pool.id}) does not exist yet and the network file gives no initialPrice for it`,
        );
        continue;
      }
      sqrtPriceX96 = pool.sqrtPriceX96;
      steps.push({
        step: `marketPool:${pool.id}`,
        description: `initialize the ${pool.label} pool ${pool.id} at sqrtPriceX96 ${sqrtPriceX96}`,
        from: 'deployer',
        to: target.infra.poolManager,
        data: POOL_MANAGER.encodeFunctionData('initialize', [poolKeyTuple(pool.key), sqrtPriceX96]),
        value: 0n,
      });
    } else if (pool.sqrtPriceX96 !== null && sqrtPriceX96 !== pool.sqrtPriceX96) {
      notes.push(`the pool ${pool.label} already exists: its initialPrice is not applied`);
    }
    if (pool.seed && now.liquidity === 0n) toSeed.push(Object.assign({}, pool, { sqrtPriceX96 }));
    else if (pool.seed)
      notes.push(`the pool ${pool.label} already has liquidity: it is not seeded again`);
  }
  if (toSeed.length === 0 || !target.seed) return;
  const seed = target.seed;
  ctx.openSeedSession();
  const byAddress = new Map(Object.values(tokens).map((t) => [t.address, t]));
  const needs = new Map<MarketToken, bigint>();
  for (const pool of toSeed) {
    const add = (address: string, amount: bigint) => {
      const token = byAddress.get(getAddress(address))!;
      needs.set(token, (needs.get(token) ?? 0n) + amount);
    };
    add(pool.key.currency0, pool.seed!.amount0);
    add(pool.key.currency1, pool.seed!.amount1);
  }
  for (const [token, need] of needs) {
    const funds = state.markets.seederFunds[token.symbol] ?? EMPTY_FUNDS;
    const used = ctx.specSeedUse[token.symbol] ?? 0n;
    const available = funds.balance > used ? funds.balance - used : 0n;
    if (available < need) {
      const missing = need - available;
      if (token.weth)
        steps.push({
          step: `marketWrap:${token.symbol}`,
          description: `wrap ${missing} wei into WETH for the seeder`,
          from: 'seeder',
          to: token.address,
          data: WETH.encodeFunctionData('deposit'),
          value: missing,
        });
      else if (token.mintable)
        steps.push({
          step: `marketMint:${token.symbol}`,
          description: `mint ${missing} ${token.symbol} units to the seeder`,
          from: 'deployer',
          to: token.address,
          data: TEST_TOKEN.encodeFunctionData('mint', [seed.seeder, missing]),
          value: 0n,
        });
      else
        problems.push(
          `the seeder ${seed.seeder} holds ${available} units of ${token.symbol} ${token.address}; seeding the market needs ${need}`,
        );
    }
    // Unlimited approvals: the spec pool's seed may use part of an exact one in this same plan.
    if (funds.allowance !== MaxUint256)
      steps.push({
        step: `marketApprove:${token.symbol}`,
        description: `approve Permit2 for the seeder's ${token.symbol}`,
        from: 'seeder',
        to: token.address,
        data: ERC20.encodeFunctionData('approve', [target.infra.permit2, MaxUint256]),
        value: 0n,
      });
    if (
      funds.permit2Amount !== MAX_UINT160 ||
      funds.permit2Expiration < state.timestamp + PERMIT2_MARGIN_SECONDS ||
      used > 0n
    )
      steps.push({
        step: `marketPermit2:${token.symbol}`,
        description: `allow the PositionManager to pull the seeder's ${token.symbol} through Permit2`,
        from: 'seeder',
        to: target.infra.permit2,
        data: PERMIT2.encodeFunctionData('approve', [
          token.address,
          target.infra.positionManager,
          MAX_UINT160,
          state.timestamp + seed.sessionSeconds,
        ]),
        value: 0n,
      });
  }
  for (const pool of toSeed)
    steps.push({
      step: `marketSeed:${pool.id}`,
      description: `seed the ${pool.label} pool with a full-range position (${pool.seed!.amount0}/${pool.seed!.amount1} units at most)`,
      from: 'seeder',
      to: target.infra.positionManager,
      data: fullRangeMintData(
        pool.key,
        { amount0: pool.seed!.amount0, amount1: pool.seed!.amount1, owner: seed.seeder },
        pool.sqrtPriceX96!,
        state.timestamp + seed.sessionSeconds,
      ),
      value: 0n,
    });
}

/** The market as `deploy` records it in the file: token addresses and every pool keyed and sorted. */
export function recordedMarket(
  file: Pick<NetworkFile, 'pools'>,
  target: DeploymentTarget,
): { tokens: Record<string, string>; pools: MarketFilePool[] | undefined } {
  const tokens = Object.fromEntries(
    Object.values(target.markets.tokens).map((t) => [t.symbol, t.address]),
  );
  if (!file.pools || file.pools.length === 0) return { tokens, pools: undefined };
  const spec = target.poolKey;
  const all = [
    { id: poolIdOf(spec), key: spec },
    ...target.markets.pools.map((p) => ({ id: p.id, key: p.key })),
  ];
  const byId = new Map(all.map((p) => [p.id, p]));
  const infos = Object.fromEntries(
    Object.values(target.markets.tokens).map((t) => [t.symbol, { ...t }]),
  );
  const pools = file.pools.map((entry) => {
    const resolved = resolveMarketPool(rekeyed(entry), infos, spec.hooks, 'pools', {
      sorted: false,
    });
    const key = byId.get(resolved.id)?.key ?? resolved;
    return {
      id: resolved.id,
      currency0: key.currency0,
      currency1: key.currency1,
      fee: key.fee,
      tickSpacing: key.tickSpacing,
      hooks: key.hooks,
      ...(entry.initialPrice ? { initialPrice: entry.initialPrice } : {}),
      ...(entry.seed ? { seed: entry.seed } : {}),
    };
  });
  return { tokens, pools };
}
