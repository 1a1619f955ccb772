/**
 * The market of a network file (design §9): its tokens (the whitelist) and its pools, checked.
 * Pure: the loader and `deploy` call it.
 *
 * Checks, each with an error naming the field: token symbols and addresses (unique, WETH and tUSDC
 * listed), decimals and names; per pool the two tokens listed, v4's ordering currency0 < currency1,
 * fee and tick spacing in v4's ranges, the current hook, and an `id` that is the PoolId of the key.
 */
import { getAddress, isAddress } from 'ethers';
import { poolIdOf } from '../encoding/pool-key';
import type { NetworkFile } from './network-definition';
import type { MarketFilePool, MarketPool, TokenInfo } from './network.types';

/** The tokens every shipped network lists: the spec's pair. */
export const SPEC_TOKENS = ['WETH', 'tUSDC'] as const;

/** v4-core: a static fee is at most 100% (1_000_000 pips); tick spacing in [1, 32767]. */
const MAX_LP_FEE = 1_000_000;
const MAX_TICK_SPACING = 32_767;
const SYMBOL = /^[A-Za-z0-9.]{1,16}$/;

export interface ResolvedMarket {
  tokens: Record<string, TokenInfo>;
  /** The spec's WETH/tUSDC pool first. */
  pools: MarketPool[];
}

function fail(message: string): never {
  throw new Error(`Network configuration: ${message}`);
}

function address(value: string | null | undefined, what: string): string {
  if (!value || !isAddress(value))
    fail(`${what} is missing or not an address (got ${JSON.stringify(value ?? null)})`);
  return getAddress(value);
}

/** The file's tokens checked; `tusdcAddress` (TUSDC_ADDRESS) replaces tUSDC's address. */
export function resolveMarketTokens(
  file: Pick<NetworkFile, 'name' | 'tokens'>,
  tusdcAddress?: string,
): Record<string, TokenInfo> {
  const where = `${file.name}.tokens`;
  if (typeof file.tokens !== 'object' || file.tokens === null) fail(`${where} must be an object`);
  for (const symbol of SPEC_TOKENS)
    if (!file.tokens[symbol])
      fail(`${where}.${symbol} is missing (the spec's pair is always listed)`);
  const tokens: Record<string, TokenInfo> = {};
  const bySymbol = new Map<string, string>();
  for (const [symbol, token] of Object.entries(file.tokens)) {
    const at = `${where}.${symbol}`;
    if (!SYMBOL.test(symbol)) fail(`${at}: a symbol is 1 to 16 letters, digits or dots`);
    if (token.symbol !== undefined && token.symbol !== symbol)
      fail(`${at}.symbol is ${JSON.stringify(token.symbol)}, not the key it is listed under`);
    if (!Number.isInteger(token.decimals) || token.decimals < 0 || token.decimals > 36)
      fail(
        `${at}.decimals must be an integer from 0 to 36 (got ${JSON.stringify(token.decimals)})`,
      );
    if (typeof token.name !== 'string' || token.name.length === 0)
      fail(`${at}.name must be a non-empty string`);
    const resolved = address(
      symbol === 'tUSDC' ? (tusdcAddress ?? token.address) : token.address,
      symbol === 'tUSDC' && !token.address ? 'TUSDC_ADDRESS' : `${at}.address`,
    );
    const twin = bySymbol.get(resolved);
    if (twin) fail(`${at}.address ${resolved} is also ${where}.${twin}`);
    bySymbol.set(resolved, symbol);
    tokens[symbol] = { symbol, name: token.name, address: resolved, decimals: token.decimals };
  }
  return tokens;
}

/** A pool currency as the file names it: an address, or the symbol of a listed token. */
function currencyOf(
  value: string,
  tokens: Record<string, TokenInfo>,
  at: string,
  byAddress: Map<string, TokenInfo>,
): TokenInfo {
  const token =
    typeof value === 'string' && isAddress(value)
      ? byAddress.get(getAddress(value))
      : tokens[value];
  if (!token)
    fail(
      `${at} ${JSON.stringify(value ?? null)} is not a token of the file (list it under tokens: ${Object.keys(tokens).join(', ')})`,
    );
  return token;
}

/** The spec's WETH/tUSDC pool at the file's `pool` fee and tick spacing. */
function specPoolEntry(file: Pick<NetworkFile, 'pool'>): MarketFilePool {
  return {
    id: null,
    currency0: 'WETH',
    currency1: 'tUSDC',
    fee: file.pool.fee,
    tickSpacing: file.pool.tickSpacing,
  };
}

/** One pool of the file resolved to its key and id (symbols turned into addresses, sorted check). */
export function resolveMarketPool(
  entry: MarketFilePool,
  tokens: Record<string, TokenInfo>,
  hook: string,
  at: string,
  opts: { sorted: boolean } = { sorted: true },
): MarketPool {
  const byAddress = new Map(Object.values(tokens).map((t) => [t.address, t]));
  let a = currencyOf(entry.currency0, tokens, `${at}.currency0`, byAddress);
  let b = currencyOf(entry.currency1, tokens, `${at}.currency1`, byAddress);
  if (a.address === b.address) fail(`${at}: currency0 and currency1 are both ${a.symbol}`);
  if (BigInt(a.address) > BigInt(b.address)) {
    if (opts.sorted)
      fail(
        `${at}: currency0 must be the lower address (v4 sorts a pool's currencies): ${a.symbol} ${a.address} > ${b.symbol} ${b.address}, swap them`,
      );
    [a, b] = [b, a];
  }
  if (!Number.isInteger(entry.fee) || entry.fee < 0 || entry.fee > MAX_LP_FEE)
    fail(`${at}.fee must be an integer from 0 to ${MAX_LP_FEE} (got ${JSON.stringify(entry.fee)})`);
  if (
    !Number.isInteger(entry.tickSpacing) ||
    entry.tickSpacing < 1 ||
    entry.tickSpacing > MAX_TICK_SPACING
  )
    fail(
      `${at}.tickSpacing must be an integer from 1 to ${MAX_TICK_SPACING} (got ${JSON.stringify(entry.tickSpacing)})`,
    );
  const hooks = entry.hooks ? address(entry.hooks, `${at}.hooks`) : hook;
  if (hooks !== hook)
    fail(
      `${at}.hooks ${hooks} is not the current ComplianceHook ${hook} (pools of an old hook belong in deprecated.pools)`,
    );
  const key = {
    currency0: a.address,
    currency1: b.address,
    fee: entry.fee,
    tickSpacing: entry.tickSpacing,
    hooks,
  };
  const id = poolIdOf(key);
  if (entry.id !== null && entry.id !== undefined && String(entry.id).toLowerCase() !== id)
    fail(`${at}.id ${JSON.stringify(entry.id)} is not the PoolId of its key (${id})`);
  for (const [field, amounts] of [
    ['initialPrice', entry.initialPrice],
    ['seed', entry.seed],
  ] as const) {
    if (amounts === undefined) continue;
    const keys = Object.keys(amounts ?? {}).sort();
    if (keys.length !== 2 || !keys.includes(a.symbol) || !keys.includes(b.symbol))
      fail(`${at}.${field} must give an amount of ${a.symbol} and of ${b.symbol}`);
    for (const k of keys)
      if (!/^\d+(\.\d+)?$/.test(String(amounts[k])) || /^0*(\.0*)?$/.test(String(amounts[k])))
        fail(
          `${at}.${field}.${k} must be a positive decimal number (got ${JSON.stringify(amounts[k])})`,
        );
  }
  return { id, ...key };
}

/**
 * The file's pools with the spec's WETH/tUSDC pool first (added when the list does not name it).
 * Unsorted entries are an error unless `sorted` is false (deploy sorts what it writes).
 */
export function marketPoolEntries(file: Pick<NetworkFile, 'pool' | 'pools'>): MarketFilePool[] {
  return file.pools && file.pools.length > 0 ? file.pools : [specPoolEntry(file)];
}

export function resolveMarket(
  file: Pick<NetworkFile, 'name' | 'tokens' | 'pool' | 'pools'>,
  hook: string,
  tusdcAddress?: string,
): ResolvedMarket {
  const tokens = resolveMarketTokens(file, tusdcAddress);
  if (file.pools !== undefined && !Array.isArray(file.pools))
    fail(`${file.name}.pools must be a list`);
  const pools = marketPoolEntries(file).map((entry, i) =>
    resolveMarketPool(entry, tokens, hook, `${file.name}.pools[${i}]`),
  );
  const ids = pools.map((p) => p.id);
  const dup = ids.findIndex((id, i) => ids.indexOf(id) !== i);
  if (dup >= 0) fail(`${file.name}.pools[${dup}] lists the pool ${ids[dup]} a second time`);
  const spec = resolveMarketPool(specPoolEntry(file), tokens, hook, `${file.name}.pool`, {
    sorted: false,
  });
  const at = ids.indexOf(spec.id);
  const specPool = at >= 0 ? pools[at] : spec;
  return { tokens, pools: [specPool, ...pools.filter((p) => p !== specPool)] };
}

/** The pools between two tokens (either order). */
export function poolsOfPair(pools: readonly MarketPool[], a: string, b: string): MarketPool[] {
  const [x, y] = [getAddress(a), getAddress(b)];
  return pools.filter(
    (p) => (p.currency0 === x && p.currency1 === y) || (p.currency0 === y && p.currency1 === x),
  );
}
